import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { retryWhileSqliteBusy } from "./busy-retry";
import { createDb, type Db } from "./client";
import { isSqliteBusy } from "./prisma-error-code";
import { applyMigrations } from "./test-db";

// A real SQLite file whatever TEST_DATABASE_URL says: SQLITE_BUSY_SNAPSHOT is SQLite's rule.
describe('a transaction SQLite refuses with SQLITE_BUSY_SNAPSHOT (docs/databases.md "SQLite under load")', () => {
  let dir: string | undefined;
  let db: Db | undefined;
  let other: Database.Database | undefined;
  afterEach(async () => {
    other?.close();
    await db?.$disconnect();
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = db = other = undefined;
  });

  /** A transaction that reads, lets another connection commit a write on its first try, then writes. */
  const setup = () => {
    dir = mkdtempSync(path.join(tmpdir(), "phylactery-snapshot-"));
    const file = path.join(dir, "snapshot.db");
    applyMigrations(file);
    const client = createDb(`file:${file}`);
    db = client;
    const writer = new Database(file);
    other = writer;
    let tries = 0;
    const transaction = () =>
      client.$transaction(async (tx) => {
        tries += 1;
        await tx.user.count();
        if (tries === 1) writer.prepare("INSERT INTO User (id, email) VALUES (?, ?)").run("u-other", "other@example.test");
        return tx.user.create({ data: { email: `mine-${tries}@example.test` } });
      });
    return { client, transaction, tries: () => tries };
  };

  it("is refused once as a lock the busy timeout cannot wait out", async () => {
    const { transaction } = setup();
    const err = await transaction().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isSqliteBusy(err)).toBe(true);
    expect(JSON.stringify(err)).toContain("SQLITE_BUSY_SNAPSHOT");
  });

  it("goes through when tried again from the start, and nothing of the refused try is kept", async () => {
    const { client, transaction, tries } = setup();
    const made = await retryWhileSqliteBusy(transaction);
    expect(tries()).toBe(2);
    expect(made.email).toBe("mine-2@example.test");
    expect((await client.user.findMany({ orderBy: { email: "asc" } })).map((u) => u.email)).toEqual(["mine-2@example.test", "other@example.test"]);
  });

  it("does not retry other errors, and gives up after its attempts", async () => {
    let calls = 0;
    const unique = Object.assign(new Error("Unique constraint failed"), { code: "P2002" });
    await expect(retryWhileSqliteBusy(async () => Promise.reject(unique).finally(() => calls++))).rejects.toBe(unique);
    expect(calls).toBe(1);
    const busy = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
    await expect(retryWhileSqliteBusy(async () => Promise.reject(busy).finally(() => calls++), { attempts: 3, pauseMs: 1 })).rejects.toBe(busy);
    expect(calls).toBe(4);
  });
});
