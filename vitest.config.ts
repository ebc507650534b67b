import path from "node:path";
import { defineConfig } from "vitest/config";

// "server-only" throws outside React Server Components; tests run lib/ code directly.
const alias = { "@": path.resolve(__dirname), "server-only": path.resolve(__dirname, "node_modules/server-only/empty.js") };
// Quiet logs (servers the tests start inherit it); a test that reads logs raises the level itself.
const env = { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" };
/**
 * How many integration files run side by side (TEST_INT_WORKERS, default 2). Files are isolated
 * (each has its own database, a copy of a migrated template, lib/db/test-db.ts, its own
 * temporary folders and free ports), so more is safe; whether it is faster depends on idle CPU:
 * on a quiet 2-core machine 2 workers took 0.68-0.70 of 1 worker's time on each database, while
 * on a loaded one 3 workers ran slower than 1 and pushed HTTP tests past their timeouts
 * (docs/testing.md).
 */
const intWorkers = Number(process.env.TEST_INT_WORKERS ?? 2);
/**
 * Files whose outcome depends on timing under load, alone, after the rest (docs/testing.md): the
 * health p99 while CPU-bound tools run, and the crash loops, whose 2-second leases and random
 * kills give up on a run its worker lost 5 times (a slow machine makes runs span more kills).
 */
const alone = ["tests/security/cpu.int.test.ts", "tests/cluster/embedded-crash.int.test.ts", "tests/cluster/cluster.int.test.ts"];
/**
 * Integration files the PostgreSQL pass (TEST_DATABASE_URL set, scripts/test.sh) skips, because
 * nothing they check can depend on the database kind; each with its reason (docs/testing.md "The
 * PostgreSQL pass"). Files whose code path differs by database (checkpointer, run store, queues,
 * leases, fan-out, erasure, crashes, clusters, migrations, raw SQL, throttles, concurrent
 * decisions, anything storing user text) stay on both passes.
 */
const sqliteOnly = [
  // No database at all: a provider over local HTTP, the JavaScript tool's worker pool, the guarded outbound client.
  "lib/models/openai-compatible.int.test.ts",
  "lib/tools/js-pool.int.test.ts",
  "tests/security/outbound.int.test.ts",
  // A SQLite file of their own whatever TEST_DATABASE_URL says (SQLite's busy rules).
  "lib/db/busy-retry.int.test.ts",
  "lib/db/prisma-error-code.int.test.ts",
];
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
/** On PostgreSQL, drops the test database made ahead and left unused after each file (lib/db/test-pg.ts). */
const setupFiles = onPostgres ? ["lib/db/test-pg-setup.ts"] : [];

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
          exclude: ["node_modules/**", ...alone, ...(onPostgres ? sqliteOnly : [])],
          setupFiles,
          testTimeout: 60_000,
          // A beforeAll that starts the built app waits for it to be healthy; with files side by
          // side (or a busy machine) that takes longer than vitest's default 10 s.
          hookTimeout: 120_000,
          maxWorkers: intWorkers,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration-alone",
          environment: "node",
          env,
          include: alone,
          setupFiles,
          testTimeout: 60_000,
          hookTimeout: 120_000,
          maxWorkers: 1,
          // After the integration project's files, so nothing else loads the CPU meanwhile.
          sequence: { groupOrder: 1 },
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
