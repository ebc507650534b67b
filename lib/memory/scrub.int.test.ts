import { afterEach, describe, expect, it } from "vitest";
import { createTestDb, type TestDb, testDialect } from "../db/test-db";
import { scrubFreedPages } from "./scrub";

const pg = testDialect() === "postgresql";

/** How many times PostgreSQL has vacuumed `table` by hand (its cumulative statistics). */
async function vacuumCount(t: TestDb, table: string): Promise<number> {
  const rows = await t.db.$queryRawUnsafe<{ n: bigint | number }[]>("SELECT vacuum_count AS n FROM pg_stat_user_tables WHERE relname = $1", table);
  return Number(rows[0]?.n ?? 0);
}

describe.runIf(pg)('a burst of erasures on PostgreSQL (docs/databases.md "Erasure")', () => {
  let t: TestDb | undefined;
  afterEach(async () => t?.cleanup());

  it("eight erasures at once run two VACUUMs of the table, not eight queued on its lock", async () => {
    t = await createTestDb();
    const before = await vacuumCount(t, "MemoryEntry");
    const db = t.db;
    await Promise.all(Array.from({ length: 8 }, () => scrubFreedPages(db, ["MemoryEntry"])));
    // The first call's VACUUM, and one shared by the seven that came while it ran.
    expect((await vacuumCount(t, "MemoryEntry")) - before).toBe(2);
  });
});
