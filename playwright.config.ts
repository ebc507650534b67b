import path from "node:path";
import { defineConfig } from "@playwright/test";

/** E2E_PORT lets two checkouts run their e2e suites side by side. */
const PORT = Number(process.env.E2E_PORT ?? 3100);
const DATABASE_URL = "file:./.data/e2e.db";
/** The operator's stdio MCP catalogue for e2e: one command running the fixture MCP server (tests/fixtures/mcp-server.ts). */
const MCP_STDIO_COMMANDS = JSON.stringify({
  fixture: {
    argv: [process.execPath, path.resolve("scripts/run-ts.mjs"), path.resolve("tests/fixtures/mcp-server.ts"), "--stdio", "--root", "{root}"],
    values: { root: ["/srv/notes-a", "/srv/notes-b"] },
    env: ["MCP_NOTES_FILE"],
    description: "the test MCP server",
  },
});

/** e2e in Debian Chromium; the server runs the built app. */
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
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  webServer: {
    command: `rm -rf .data/e2e.db .data/e2e-workspaces && mkdir -p .data && npx prisma migrate deploy && node scripts/run-ts.mjs prisma/seed.ts && node node_modules/next/dist/bin/next start -p ${PORT} -H 127.0.0.1`,
    url: `http://127.0.0.1:${PORT}/api/health`,
    // The e2e fixtures (provider, MCP server) listen on loopback: the operator opens it, as a deployment would.
    env: { DATABASE_URL, WORKSPACES_DIR: "./.data/e2e-workspaces", OUTBOUND_ALLOW_PRIVATE: "127.0.0.1", MCP_STDIO_COMMANDS },
    timeout: 120_000,
    reuseExistingServer: false,
  },
});
