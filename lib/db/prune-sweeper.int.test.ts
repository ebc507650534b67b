import { afterEach, describe, expect, it } from "vitest";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";
import { type PruneCursor, startPruneSweeper, sweepPrunableThreads } from "./prune-sweeper";

/**
 * The pruning sweeper (docs/storage.md "Retention") on a SQLite file with real runs of the
 * offline model: only finished threads past retention are pruned, in batches that go round
 * every thread, and a pruned thread is not picked again.
 */
describe("checkpoint pruning sweeper", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  const HOUR = 3_600_000;

  async function completedThread(): Promise<string> {
    const threadId = await f.newThread("Read notes.md and tell me what it says");
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: "Read notes.md and tell me what it says" }));
    expect(lastData(chunks, "data-run")?.data.status).toBe("completed");
    return threadId;
  }

  async function waitingThread(): Promise<string> {
    const threadId = await f.newThread();
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    expect(lastData(chunks, "data-run")?.data.status).toBe("awaiting_approval");
    return threadId;
  }

  const writes = (threadId: string) => f.t.db.checkpointWrite.count({ where: { threadId } });

  it("prunes finished threads only once their last run ended before now - retention, a batch at a time round every thread, and never picks a pruned one again", async () => {
    f = await engineFixture();
    const [a, b, waiting] = [await completedThread(), await completedThread(), await waitingThread()];
    const before = { a: await writes(a), b: await writes(b), waiting: await writes(waiting) };
    expect(Math.min(before.a, before.b, before.waiting)).toBeGreaterThan(10);

    // Within retention: nothing is pruned, although all three have writes to prune.
    const recent = await sweepPrunableThreads(f.t.db, { retentionMs: HOUR, now: () => Date.now() + HOUR / 2 });
    expect(recent).toEqual({ looked: 3, pruned: 0, writesDeleted: 0 });
    expect(await writes(a)).toBe(before.a);

    // Past retention, one thread per pass: the cursor goes round, then starts again.
    const cursor: PruneCursor = { after: "" };
    const late = { retentionMs: HOUR, now: () => Date.now() + 2 * HOUR, batchSize: 1 };
    const passes = [];
    for (let i = 0; i < 4; i++) passes.push(await sweepPrunableThreads(f.t.db, late, cursor));
    expect(passes.slice(0, 3).map((p) => p.looked)).toEqual([1, 1, 1]);
    expect(passes.reduce((n, p) => n + p.pruned, 0)).toBe(2);
    expect(await writes(a)).toBeLessThan(before.a / 5);
    expect(await writes(b)).toBeLessThan(before.b / 5);
    expect(await writes(waiting)).toBe(before.waiting);

    // Pruned threads have nothing left to prune: only the waiting one is looked at.
    expect(await sweepPrunableThreads(f.t.db, { retentionMs: 0 })).toEqual({ looked: 1, pruned: 0, writesDeleted: 0 });
  });

  it("the started sweeper prunes on its interval and stops; with retention off it never starts", async () => {
    f = await engineFixture();
    const threadId = await completedThread();
    const before = await writes(threadId);

    const off = startPruneSweeper(f.t.db, { intervalMs: 20, retentionMs: null });
    await new Promise((r) => setTimeout(r, 150));
    off();
    expect(await writes(threadId)).toBe(before);

    const stop = startPruneSweeper(f.t.db, { intervalMs: 20, retentionMs: 0 });
    const deadline = Date.now() + 10_000;
    while ((await writes(threadId)) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    stop();
    expect(await writes(threadId)).toBeLessThan(before / 5);
  });
});
