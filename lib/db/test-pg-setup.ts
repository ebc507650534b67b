import { afterAll } from "vitest";
import { dropSpareDatabases } from "./test-pg";

/**
 * Vitest setup file of the integration projects on PostgreSQL (vitest.config.ts): after each
 * test file, drops the test database made ahead for an ask that never came
 * (lib/db/test-pg.ts `createPgTestDatabase`), so a file leaves no database behind. A setup
 * file's `afterAll` runs after the file's own ones (vitest runs after-hooks in reverse order).
 */
afterAll(async () => {
  await dropSpareDatabases();
});
