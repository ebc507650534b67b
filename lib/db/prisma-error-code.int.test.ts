import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createDb, type Db } from "./client";
import { isSqliteBusy, prismaErrorCode } from "./prisma-error-code";
import { applyMigrations } from "./test-db";

// A real lock on a SQLite file (whatever TEST_DATABASE_URL says: the rule is SQLite's), so the
// error is the one Prisma's driver adapter really throws, not a hand-made copy.
describe("isSqliteBusy on a locked SQLite file", () => {
  let dir: string | undefined;
  let db: Db | undefined;
  let holder: Database.Database | undefined;
  afterEach(async () => {
    holder?.close();
    await db?.$disconnect();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = db = holder = undefined;
  });

  it("tells SQLITE_BUSY through Prisma by the driver's code, where the message says only that it timed out", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "phylactery-busy-"));
    const file = path.join(dir, "busy.db");
    applyMigrations(file);
    db = createDb(`file:${file}`);
    // Refuse at once instead of waiting the client's busy timeout.
    await db.$queryRawUnsafe("PRAGMA busy_timeout = 0");
    holder = new Database(file);
    holder.exec("BEGIN IMMEDIATE");
    const err = await db.user.create({ data: { email: "busy@example.test" } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(prismaErrorCode(err)).toBe("P1008");
    expect(String((err as Error).message)).not.toMatch(/database is locked|SQLITE_BUSY/);
    expect(isSqliteBusy(err)).toBe(true);
    // The driver's own error (the checkpointer's path) is told by its code too.
    const direct = (() => {
      try {
        new Database(file, { timeout: 0 }).exec("BEGIN IMMEDIATE");
      } catch (e) {
        return e;
      }
    })();
    expect(isSqliteBusy(direct)).toBe(true);
    holder.exec("COMMIT");
    // Once the lock is gone the same write goes through, and a unique violation is no lock.
    await db.user.create({ data: { email: "busy@example.test" } });
    const duplicate = await db.user.create({ data: { email: "busy@example.test" } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(prismaErrorCode(duplicate)).toBe("P2002");
    expect(isSqliteBusy(duplicate)).toBe(false);
  });
});
