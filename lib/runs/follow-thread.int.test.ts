import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { engineFixture, type EngineFixture } from "./test-helpers";
import type { RunChunk } from "../events/ui-parts";
import type { Fanout, FanoutHandler } from "../events/fanout";
import { type FollowedChunk, type FollowedLive, followThread } from "./follow-thread";
import { appendLiveText, clearLiveText } from "../events/live-text";
import { InProcessFanout } from "../events/in-process-fanout";
import { notifyThreadEvent } from "../events/thread-events";
import { checkpointStoreFor } from "../db/checkpointer-stores";

/** Follows of a thread's stored run events on a real SQLite file: replay, live, loss, end, abort. */
describe("followThread", () => {
  let f: EngineFixture;
  beforeAll(async () => {
    f = await engineFixture();
  });
  afterAll(async () => {
    await f.cleanup();
  });

  const runPart = (runId: string, status: string): RunChunk => ({ type: "data-run", id: runId, data: { runId, status, model: null, error: null } }) as RunChunk;
  const stepPart = (n: number): RunChunk => ({ type: "data-lifecycle", id: `l${n}`, data: { from: "A", to: `S${n}`, node: "n", at: "2026-01-01T00:00:00.000Z" } });
  /** A thread with one run row (status `running` unless told). */
  async function threadWithRun(status = "running") {
    const threadId = await f.newThread();
    const thread = await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } });
    const run = await f.t.db.run.create({ data: { threadId, flowVersionId: thread.flowVersionId, kind: "start", status } });
    let seq = 0;
    /** Stores the next event as the run service does (name + JSON of the chunk or record). */
    const store = async (data: unknown, type = "lifecycle_transition", runId: string | null = run.id) => {
      seq += 1;
      await f.t.db.runEvent.create({ data: { threadId, runId, seq, type, data: JSON.stringify(data) } });
      return seq;
    };
    return { threadId, runId: run.id, store };
  }
  async function drain(it: AsyncGenerator<FollowedChunk>, out: FollowedChunk[] = []) {
    for await (const c of it) out.push(c);
    return out;
  }
  /** A fan-out that loses every notification (as between two processes on one SQLite file). */
  const deaf: Fanout = { notify: async () => undefined, listen: () => Object.assign(() => undefined, { ready: Promise.resolve() }), close: async () => undefined };

  it("replays the events after the cursor in seq order, skipping stored-only records, and ends at the run's final run part", async () => {
    const { threadId, runId, store } = await threadWithRun();
    await store({ text: "Do it", kind: "message" }, "user_message");
    await store({ type: "event", name: "intent_classified", payload: { intent: "task" } }, "intent_classified");
    await store(runPart(runId, "running"), "run_started");
    await store(stepPart(1));
    await store(stepPart(2));
    await store({ type: "text", id: "answer", text: "Done." }, "final_answer");
    await store(runPart(runId, "completed"), "run_completed");
    const all = await drain(followThread(f.t.db, threadId, { after: 0, runId, fanout: deaf }));
    expect(all.map((c) => c.seq)).toEqual([3, 4, 5, 6, 7]);
    expect(all.map((c) => c.chunk)).toEqual([runPart(runId, "running"), stepPart(1), stepPart(2), { type: "text", id: "answer", text: "Done." }, runPart(runId, "completed")]);
    const later = await drain(followThread(f.t.db, threadId, { after: 4, runId, fanout: deaf }));
    expect(later.map((c) => c.seq)).toEqual([5, 6, 7]);
  });

  it("follows events stored after it started, woken by notifications, until an awaiting status", async () => {
    const fan = new InProcessFanout();
    const { threadId, runId, store } = await threadWithRun();
    await store(runPart(runId, "running"), "run_started");
    const out: FollowedChunk[] = [];
    // A long poll: only notifications can make this fast.
    const done = drain(followThread(f.t.db, threadId, { after: 0, runId, fanout: fan, pollMs: 60_000 }), out);
    await until(() => out.length === 1);
    const started = Date.now();
    for (const n of [1, 2, 3]) await notifyThreadEvent(threadId, await store(stepPart(n)), runId, fan);
    await notifyThreadEvent(threadId, await store(runPart(runId, "awaiting_approval"), "run_suspended"), runId, fan);
    await done;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(out.map((c) => (c.chunk.type === "data-lifecycle" ? c.chunk.data.to : c.chunk.type === "data-run" ? c.chunk.data.status : "?"))).toEqual(["running", "S1", "S2", "S3", "awaiting_approval"]);
    await fan.close();
  });

  it("does not read the run's row for each word of live text: a run writing text is running", async () => {
    const fan = new InProcessFanout();
    const { threadId, runId, store } = await threadWithRun();
    await store(runPart(runId, "running"), "run_started");
    const rowReads = vi.spyOn(f.t.db.run, "findUnique");
    const stop = new AbortController();
    const out: (FollowedChunk | FollowedLive)[] = [];
    const done = (async () => {
      for await (const c of followThread(f.t.db, threadId, { after: 0, runId, fanout: fan, pollMs: 60_000, live: true, signal: stop.signal })) out.push(c);
    })();
    await until(() => out.length === 1);
    const before = rowReads.mock.calls.length;
    for (let i = 0; i < 30; i++) {
      appendLiveText(threadId, runId, "answer", "finalizer", `w${i} `);
      await until(() => out.length === i + 2);
    }
    expect(out.filter((c) => "live" in c)).toHaveLength(30);
    expect(rowReads.mock.calls.length - before).toBeLessThanOrEqual(1);
    stop.abort();
    await done;
    clearLiveText(threadId, runId);
    rowReads.mockRestore();
    await fan.close();
  });

  it("never lets live text overtake an event stored while it read the events: the text heard during a read waits for the next", async () => {
    const fan = new InProcessFanout();
    const { threadId, runId, store } = await threadWithRun();
    await store(runPart(runId, "running"), "run_started");
    const stop = new AbortController();
    const out: (FollowedChunk | FollowedLive)[] = [];
    // The follower's reads go to the driver's statements (lib/db/run-events-sql.ts).
    const sql = checkpointStoreFor(f.t.url)?.runEvents?.();
    if (!sql) throw new Error("no driver statements for the test database");
    const real = sql.after.bind(sql);
    let race = false;
    // The writer stores an event after the read's snapshot, then writes text, before the read returns.
    const reads = vi.spyOn(sql, "after").mockImplementation(async (...args) => {
      const rows = await real(...args);
      if (race) {
        race = false;
        await notifyThreadEvent(threadId, await store(stepPart(1)), runId, fan);
        appendLiveText(threadId, runId, "answer", "finalizer", "Done.");
      }
      return rows;
    });
    const done = (async () => {
      for await (const c of followThread(f.t.db, threadId, { after: 0, runId, fanout: fan, pollMs: 60_000, live: true, signal: stop.signal })) out.push(c);
    })();
    await until(() => out.length === 1);
    race = true;
    await notifyThreadEvent(threadId, await store(stepPart(0)), runId, fan);
    await until(() => out.length === 4);
    const kinds = out.map((c) => ("live" in c ? `live:${c.live.type === "text-delta" ? c.live.delta : ""}` : c.chunk.type === "data-lifecycle" ? c.chunk.data.to : c.chunk.type));
    expect(kinds).toEqual(["data-run", "S0", "S1", "live:Done."]);
    stop.abort();
    await done;
    reads.mockRestore();
    clearLiveText(threadId, runId);
    await fan.close();
  });

  it("has no gaps when notifications are lost and no duplicates when they repeat or come early: it re-reads by seq", async () => {
    const handlers = new Set<FanoutHandler>();
    // Delivers only every other notification, each one three times, ahead of the real seq.
    let n = 0;
    const flaky: Fanout = {
      notify: async (_channel, payload) => {
        n += 1;
        if (n % 2 === 0) return;
        const p = payload as { t: string; s: number; r: string };
        for (const s of [p.s + 5, p.s, p.s]) for (const h of handlers) h({ ...p, s });
      },
      listen: (_channel, h) => {
        handlers.add(h);
        return Object.assign(() => void handlers.delete(h), { ready: Promise.resolve() });
      },
      close: async () => undefined,
    };
    const { threadId, runId, store } = await threadWithRun();
    const out: FollowedChunk[] = [];
    const done = drain(followThread(f.t.db, threadId, { after: 0, runId, fanout: flaky, pollMs: 100 }), out);
    await notifyThreadEvent(threadId, await store(runPart(runId, "running"), "run_started"), runId, flaky);
    for (let i = 1; i <= 20; i += 1) {
      await notifyThreadEvent(threadId, await store(stepPart(i)), runId, flaky);
      if (i % 7 === 0) await new Promise((r) => setTimeout(r, 30));
    }
    await notifyThreadEvent(threadId, await store(runPart(runId, "completed"), "run_completed"), runId, flaky);
    await done;
    expect(out.map((c) => c.seq)).toEqual(Array.from({ length: 22 }, (_, i) => i + 1));
    expect(handlers.size).toBe(0);
  });

  it("follows another process's writes with no notifications at all (one SQLite file): the poll", async () => {
    const { threadId, runId, store } = await threadWithRun();
    const out: FollowedChunk[] = [];
    const done = drain(followThread(f.t.db, threadId, { after: 0, runId, fanout: deaf, pollMs: 50 }), out);
    await store(runPart(runId, "running"), "run_started");
    await until(() => out.length === 1);
    await store(stepPart(1));
    await store(runPart(runId, "failed"), "run_failed");
    await done;
    expect(out.map((c) => c.seq)).toEqual([1, 2, 3]);
  });

  it("yields only the followed run's events, and without runId adopts the first run it reads", async () => {
    const a = await threadWithRun();
    const thread = await f.t.db.thread.findUniqueOrThrow({ where: { id: a.threadId } });
    const other = await f.t.db.run.create({ data: { threadId: a.threadId, flowVersionId: thread.flowVersionId, kind: "resume", status: "running" } });
    await a.store(runPart(a.runId, "running"), "run_started");
    await a.store(runPart(a.runId, "awaiting_approval"), "run_suspended");
    await a.store(runPart(other.id, "running"), "run_started", other.id);
    await a.store(stepPart(9), "lifecycle_transition", other.id);
    await a.store(runPart(other.id, "completed"), "run_completed", other.id);
    const second = await drain(followThread(f.t.db, a.threadId, { after: 0, runId: other.id, fanout: deaf }));
    expect(second.map((c) => c.seq)).toEqual([3, 4, 5]);
    const adopted = await drain(followThread(f.t.db, a.threadId, { after: 0, fanout: deaf }));
    expect(adopted.map((c) => c.seq)).toEqual([1, 2]);
  });

  it("ends on abort, and when its run ended without a final run part (cut off) after the grace", async () => {
    const { threadId, runId, store } = await threadWithRun();
    await store(runPart(runId, "running"), "run_started");
    const ac = new AbortController();
    const out: FollowedChunk[] = [];
    const done = drain(followThread(f.t.db, threadId, { after: 0, runId, fanout: new InProcessFanout(), pollMs: 60_000, signal: ac.signal }), out);
    await until(() => out.length === 1);
    ac.abort();
    await done;
    expect(out).toHaveLength(1);

    const cut = await threadWithRun();
    await cut.store(runPart(cut.runId, "running"), "run_started");
    await f.t.db.run.update({ where: { id: cut.runId }, data: { status: "interrupted" } });
    const started = Date.now();
    const rest = await drain(followThread(f.t.db, cut.threadId, { after: 0, runId: cut.runId, fanout: deaf, pollMs: 50, endedGraceMs: 300 }));
    expect(rest.map((c) => c.seq)).toEqual([1]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it("follows a real run as it streams: the same chunks, in order, without duplicates (approval tokens are not stored)", async () => {
    const threadId = await f.newThread();
    const run = await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" });
    const follow = followThread(f.t.db, threadId, { after: 0, runId: run.runId });
    const followed: FollowedChunk[] = [];
    const following = drain(follow, followed);
    const streamed: RunChunk[] = [];
    for await (const c of run.stream()) streamed.push(c);
    await following;
    const blank = (c: RunChunk) => (c.type === "data-approval" ? { ...c, data: { ...c.data, token: "" } } : c);
    expect(streamed.length).toBeGreaterThan(5);
    expect(followed.map((c) => c.chunk)).toEqual(streamed.map(blank));
    expect(new Set(followed.map((c) => c.seq)).size).toBe(followed.length);
    expect(streamed.at(-1)?.type).toBe("data-run");
  });
});

/** Waits until `cond` holds (checked every 10 ms, at most 5 s). */
async function until(cond: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}
