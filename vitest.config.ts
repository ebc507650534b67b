import path from "node:path";
import { defineConfig } from "vitest/config";

// "server-only" throws outside React Server Components; tests run lib/ code directly.
const alias = { "@": path.resolve(__dirname), "server-only": path.resolve(__dirname, "node_modules/server-only/empty.js") };
// Quiet logs (servers the tests start inherit it); a test that reads logs raises the level itself.
const env = { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" };

/** Test kinds: unit beside the code, database *.int.test.ts, the conformance suite. */
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          environment: "node",
          env,
          include: ["lib/**/*.test.ts", "tests/security/**/*.test.ts"],
          exclude: ["**/*.int.test.ts", "**/*.conformance.test.ts", "node_modules/**"],
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          environment: "node",
          env,
          include: ["**/*.int.test.ts"],
          exclude: ["node_modules/**"],
          testTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "conformance",
          environment: "node",
          env,
          globals: true,
          include: ["lib/**/*.conformance.test.ts"],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
