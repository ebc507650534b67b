import { afterEach, describe, expect, it } from "vitest";
import { subscribe } from "../events/bus";
import { appendEntry, clearShortTerm, MAX_ENTRY_RESULT_CHARS, purgeExpired, readRecent } from "./short-term";
import { startMemorySweeper } from "./sweeper";
import { type MemoryFixture, memoryFixture } from "./test-fixtures";

/** Short-term memory on a real SQLite file (append, read_recent, clear, TTL). */
describe("short-term memory", () => {
  let f: MemoryFixture;
  afterEach(async () => f?.cleanup());

  const entry = (threadId: string, workspaceId: string, i: number, extra: { ttlMs?: number; now?: number } = {}) => ({
    threadId,
    workspaceId,
    key: `step:s${i}:1`,
    agentId: "assistant",
    action: `action ${i}`,
    result: `result ${i}`,
    stepId: `s${i}`,
    ...extra,
  });

  it("append is idempotent per (thread, key), caps the result and publishes memory.appended", async () => {
    f = await memoryFixture();
    const threadId = await f.a.newThread();
    const seen: unknown[] = [];
    const stop = subscribe(
      "memory.appended",
      (e) => {
        seen.push(e.data);
      },
      { threadId },
    );
    try {
      const first = await appendEntry(f.t.db, { ...entry(threadId, f.a.workspaceId, 1), result: "x".repeat(5_000) });
      const again = await appendEntry(f.t.db, { ...entry(threadId, f.a.workspaceId, 1), result: "something else" });
      expect(again.id).toBe(first.id);
      expect(first.result).toHaveLength(MAX_ENTRY_RESULT_CHARS);
      expect(await f.t.db.memoryEntry.count({ where: { threadId } })).toBe(1);
      expect(seen).toEqual([{ entryId: first.id, agentId: "assistant", action: "action 1", stepId: "s1" }]);
      expect(new Date(first.expiresAt).getTime() - new Date(first.createdAt).getTime()).toBe(24 * 60 * 60 * 1000);
    } finally {
      stop();
    }
  });

  it("readRecent gives the last `limit` unexpired entries, oldest first (default 20)", async () => {
    f = await memoryFixture();
    const threadId = await f.a.newThread();
    const other = await f.a.newThread();
    const t0 = Date.now();
    for (let i = 0; i < 25; i++) await appendEntry(f.t.db, entry(threadId, f.a.workspaceId, i, { now: t0 + i }));
    await appendEntry(f.t.db, entry(other, f.a.workspaceId, 99, { now: t0 }));
    const recent = await readRecent(f.t.db, threadId, { now: t0 + 100 });
    expect(recent.map((e) => e.action)).toEqual(Array.from({ length: 20 }, (_, i) => `action ${i + 5}`));
    expect((await readRecent(f.t.db, threadId, { limit: 3, now: t0 + 100 })).map((e) => e.action)).toEqual(["action 22", "action 23", "action 24"]);
    // An entry past its TTL is not read even before it is purged.
    await appendEntry(f.t.db, entry(threadId, f.a.workspaceId, 50, { now: t0 + 200, ttlMs: 10 }));
    expect((await readRecent(f.t.db, threadId, { now: t0 + 205 })).at(-1)?.action).toBe("action 50");
    expect((await readRecent(f.t.db, threadId, { now: t0 + 211 })).at(-1)?.action).toBe("action 24");
  });

  it("purgeExpired deletes entries past their TTL and keeps the others", async () => {
    f = await memoryFixture();
    const threadId = await f.a.newThread();
    const t0 = Date.now();
    await appendEntry(f.t.db, entry(threadId, f.a.workspaceId, 1, { now: t0, ttlMs: 1_000 }));
    await appendEntry(f.t.db, entry(threadId, f.a.workspaceId, 2, { now: t0, ttlMs: 5_000 }));
    expect(await purgeExpired(f.t.db, t0 + 999)).toBe(0);
    expect(await purgeExpired(f.t.db, t0 + 1_000)).toBe(1);
    expect((await f.t.db.memoryEntry.findMany({ where: { threadId } })).map((e) => e.action)).toEqual(["action 2"]);
  });

  it("the sweeper purges expired entries on its interval and stops", async () => {
    f = await memoryFixture();
    const threadId = await f.a.newThread();
    const past = Date.now() - 60_000;
    await appendEntry(f.t.db, entry(threadId, f.a.workspaceId, 1, { now: past, ttlMs: 1_000 }));
    await appendEntry(f.t.db, entry(threadId, f.a.workspaceId, 2));
    const stop = startMemorySweeper(f.t.db, 50);
    try {
      const deadline = Date.now() + 5_000;
      while ((await f.t.db.memoryEntry.count({ where: { threadId } })) > 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    } finally {
      stop();
    }
    expect((await f.t.db.memoryEntry.findMany({ where: { threadId } })).map((e) => e.action)).toEqual(["action 2"]);
  });

  it("clear removes the thread's entries, writes a tombstone without content and publishes memory.forgotten", async () => {
    f = await memoryFixture();
    const threadId = await f.a.newThread();
    const other = await f.a.newThread();
    for (let i = 0; i < 3; i++) await appendEntry(f.t.db, entry(threadId, f.a.workspaceId, i));
    await appendEntry(f.t.db, entry(other, f.a.workspaceId, 1));
    const seen: unknown[] = [];
    const stop = subscribe(
      "memory.forgotten",
      (e) => {
        seen.push(e.data);
      },
      { threadId },
    );
    try {
      expect(await clearShortTerm(f.t.db, { threadId, actorId: f.a.userId })).toEqual({ removed: 3 });
    } finally {
      stop();
    }
    expect(await f.t.db.memoryEntry.count({ where: { threadId } })).toBe(0);
    expect(await f.t.db.memoryEntry.count({ where: { threadId: other } })).toBe(1);
    const tomb = await f.t.db.tombstone.findFirstOrThrow({ where: { subjectId: threadId } });
    expect(tomb).toMatchObject({ kind: "short_term", workspaceId: f.a.workspaceId, actorId: f.a.userId, counts: JSON.stringify({ entries: 3 }) });
    expect(seen).toEqual([{ kind: "short_term", subjectId: threadId, workspaceId: f.a.workspaceId, counts: { entries: 3 } }]);
    await expect(clearShortTerm(f.t.db, { threadId: "nope", actorId: f.a.userId })).rejects.toMatchObject({ status: 404 });
  });
});
