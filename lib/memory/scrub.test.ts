import { describe, expect, it } from "vitest";
import type { Db } from "../db/client";
import { scrubFreedPages } from "./scrub";

/**
 * A PostgreSQL client whose VACUUMs end when the test says: each statement is recorded, and
 * `finish(i, err?)` ends the i-th one.
 */
function fakePg() {
  const started: { sql: string; end: (err?: Error) => void }[] = [];
  const db = {
    _activeProvider: "postgresql",
    $executeRawUnsafe: (sql: string) =>
      new Promise<number>((resolve, reject) => {
        started.push({ sql, end: (err) => (err ? reject(err) : resolve(0)) });
      }),
  } as unknown as Db;
  const finish = async (i: number, err?: Error) => {
    started[i]?.end(err);
    // Let the settled VACUUM's callbacks (and the next one's start) run.
    for (let k = 0; k < 10; k++) await Promise.resolve();
  };
  return { db, started, finish };
}

/** Resolution state of a promise, read after the microtask queue drained. */
function track(p: Promise<unknown>) {
  const s = { done: false, failed: false };
  p.then(
    () => {
      s.done = true;
    },
    () => {
      s.failed = true;
    },
  );
  return s;
}

describe('scrubFreedPages on PostgreSQL (docs/databases.md "Erasure")', () => {
  it("erasures that arrive while a VACUUM of the table runs share one VACUUM queued behind it", async () => {
    const { db, started, finish } = fakePg();
    const first = track(scrubFreedPages(db, ["MemoryEntry"]));
    await finish(-1);
    expect(started.map((s) => s.sql)).toEqual(['VACUUM "MemoryEntry"']);
    // Two more while the first runs: nothing new starts, since a VACUUM already waiting on the
    // table's lock would keep the running one from truncating.
    const second = track(scrubFreedPages(db, ["MemoryEntry"]));
    const third = track(scrubFreedPages(db, ["MemoryEntry"]));
    await finish(-1);
    expect(started).toHaveLength(1);
    // The first ends: its caller is done; the two others need a VACUUM that began after they
    // were called (the running one may predate their deletes), and share one.
    await finish(0);
    expect(first.done).toBe(true);
    expect([second.done, third.done]).toEqual([false, false]);
    expect(started).toHaveLength(2);
    // One more while the shared one runs waits for a third.
    const fourth = track(scrubFreedPages(db, ["MemoryEntry"]));
    await finish(-1);
    expect(started).toHaveLength(2);
    await finish(1);
    expect([second.done, third.done, fourth.done]).toEqual([true, true, false]);
    expect(started).toHaveLength(3);
    await finish(2);
    expect(fourth.done).toBe(true);
    // Idle again: the next call starts at once.
    void scrubFreedPages(db, ["MemoryEntry"]);
    await finish(-1);
    expect(started).toHaveLength(4);
  });

  it("other tables are not held back, and a failed VACUUM fails only the callers that shared it", async () => {
    const { db, started, finish } = fakePg();
    const a = track(scrubFreedPages(db, ["MemoryEntry"]));
    const b = track(scrubFreedPages(db, ["MemoryFact"]));
    await finish(-1);
    expect(started.map((s) => s.sql)).toEqual(['VACUUM "MemoryEntry"', 'VACUUM "MemoryFact"']);
    const c = track(scrubFreedPages(db, ["MemoryEntry"]));
    await finish(0, new Error("canceling statement due to user request"));
    expect(a.failed).toBe(true);
    expect(c.done || c.failed).toBe(false);
    expect(started[2]?.sql).toBe('VACUUM "MemoryEntry"');
    await finish(2);
    await finish(1);
    expect([b.done, c.done]).toEqual([true, true]);
  });
});
