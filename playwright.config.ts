import { defineConfig } from "@playwright/test";

/** E2E_PORT lets two checkouts run their e2e suites side by side. */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const DATABASE_URL = "file:./.data/e2e.db";

/** e2e in Debian Chromium (shared STACK.md "Browser tests"); the server runs the built app. */
export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    command: `rm -rf .data/e2e.db .data/e2e-workspaces && mkdir -p .data && npx prisma migrate deploy && node scripts/run-ts.mjs prisma/seed.ts && node node_modules/next/dist/bin/next start -p ${PORT} -H 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    env: { DATABASE_URL, WORKSPACES_DIR: "./.data/e2e-workspaces" },
    timeout: 120_000,
    reuseExistingServer: false,
  },
});
