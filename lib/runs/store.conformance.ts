import { describe, expect, it } from "vitest";
import type { RunStore } from "./store";

/** What a conformance run needs: a fresh store, two threads it may write, and a way to read back what the store does not return. */
export interface RunStoreSetup {
  store: RunStore;
  threadIds: [string, string];
  /** A flow version the threads' runs may name. */
  flowVersionId: string;
  /** The run's status, the thread's status and its lease holder as stored. */
  peek(threadId: string, runId: string): Promise<{ runStatus: string | null; threadStatus: string | null; leaseRunId: string | null; leaseHolder: string | null }>;
  cleanup(): Promise<void>;
}

/**
 * The contract every run store meets (store.ts), run against the database store (SQLite, and
 * PostgreSQL with TEST_DATABASE_URL) and its in-memory twin alike.
 */
export function runStoreConformance(name: string, setup: () => Promise<RunStoreSetup>): void {
  describe(`run store: ${name}`, () => {
    const withSetup = (fn: (s: RunStoreSetup) => Promise<void>) => async () => {
      const s = await setup();
      try {
        await fn(s);
      } finally {
        await s.cleanup();
      }
    };
    const accept = async (s: RunStoreSetup, threadId: string) => {
      const runId = await s.store.createRun({ threadId, flowVersionId: s.flowVersionId, kind: "start" });
      const jobId = await s.store.createJob({ runId, threadId, requestedBy: "user-1", input: '{"kind":"message"}', startCheckpointId: null });
      return { runId, jobId, threadId };
    };

    it(
      "appends number each thread's events from 1, in order, and reads them after a seq, by run, by name, newest first",
      withSetup(async (s) => {
        const [a, b] = s.threadIds;
        const { runId } = await accept(s, a);
        expect(await s.store.lastSeq(a)).toBe(0);
        expect(await s.store.firstSeqOf(runId)).toBeNull();
        expect(await s.store.append({ threadId: a, runId: null, type: "thread_forked", data: '{"from":"t0"}' })).toBe(1);
        expect(await s.store.append({ threadId: a, runId, type: "user_message", data: '{"text":"hi"}' })).toBe(2);
        expect(await s.store.append({ threadId: b, runId: null, type: "thread_forked", data: "{}" })).toBe(1);
        expect(await s.store.append({ threadId: a, runId, type: "final_answer", data: '{"text":"apv_42 done"}' })).toBe(3);
        expect(await s.store.lastSeq(a)).toBe(3);
        expect(await s.store.firstSeqOf(runId)).toBe(2);
        expect(await s.store.countEvents(a)).toBe(3);
        expect((await s.store.events({ threadId: a, afterSeq: 1 })).map((e) => e.seq)).toEqual([2, 3]);
        expect(await s.store.events({ threadId: a, afterSeq: 1, take: 1 })).toEqual([{ threadId: a, runId, seq: 2, type: "user_message", data: '{"text":"hi"}' }]);
        expect((await s.store.events({ runId })).map((e) => e.type)).toEqual(["user_message", "final_answer"]);
        expect((await s.store.events({ threadId: a, runId: null })).map((e) => e.type)).toEqual(["thread_forked"]);
        expect((await s.store.events({ threadId: a, types: ["final_answer", "thread_forked"] })).map((e) => e.seq)).toEqual([1, 3]);
        expect((await s.store.events({ threadId: a, dataContains: "apv_42" })).map((e) => e.seq)).toEqual([3]);
        expect((await s.store.events({ threadId: a, newestFirst: true, take: 2 })).map((e) => e.seq)).toEqual([3, 2]);
        expect((await s.store.events({ threadIds: [a, b], types: ["thread_forked"] })).map((e) => e.threadId).sort()).toEqual([a, b].sort());
        expect((await s.store.events({ runIds: [runId], types: ["user_message"] })).map((e) => e.seq)).toEqual([2]);
        await s.store.append({ threadId: b, runId: null, type: "final_answer", data: "{}" });
        const latest = await s.store.latestOfEach([a, b], ["final_answer", "user_message"]);
        expect(latest.map((e) => `${e.threadId === a ? "a" : "b"}:${e.seq}`).sort()).toEqual(["a:3", "b:2"]);
        expect(await s.store.latestOfEach([], ["final_answer"])).toEqual([]);
      }),
    );

    it(
      "concurrent appends to one thread each get their own seq: none is lost, none is doubled",
      withSetup(async (s) => {
        const [a] = s.threadIds;
        const seqs = await Promise.all(Array.from({ length: 5 }, (_, i) => s.store.append({ threadId: a, runId: null, type: "user_message", data: `{"i":${i}}` })));
        expect([...seqs].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5]);
        expect((await s.store.events({ threadId: a })).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      }),
    );

    it(
      "a run and its job: queued, found by id and by run, the thread's active run",
      withSetup(async (s) => {
        const [a, b] = s.threadIds;
        expect(await s.store.activeRun(a)).toBeNull();
        const { runId, jobId } = await accept(s, a);
        expect(await s.store.job({ id: jobId })).toEqual({
          id: jobId,
          runId,
          threadId: a,
          requestedBy: "user-1",
          input: '{"kind":"message"}',
          startCheckpointId: null,
          status: "queued",
          attempts: 0,
          holder: null,
        });
        expect((await s.store.job({ runId }))?.id).toBe(jobId);
        expect(await s.store.job({ id: "no-such-job" })).toBeNull();
        expect(await s.store.activeRun(a)).toBe(runId);
        expect(await s.store.activeRun(b)).toBeNull();
        expect((await s.peek(a, runId)).runStatus).toBe("queued");
      }),
    );

    it(
      "the lease: one run takes it; one worker claims it, renews it, loses it to another only once it lapsed; release frees the thread",
      withSetup(async (s) => {
        const [a] = s.threadIds;
        const first = await accept(s, a);
        const second = await accept(s, a);
        expect(await s.store.takeLease(a, first.runId)).toBe(true);
        expect(await s.store.takeLease(a, second.runId)).toBe(false);
        // A job whose run does not hold the lease cannot be claimed.
        expect(await s.store.claim({ id: second.jobId, runId: second.runId, threadId: a }, "w1", 1_000, 10_000)).toBe(false);
        expect(await s.store.claim({ id: first.jobId, runId: first.runId, threadId: a }, "w1", 1_000, 10_000)).toBe(true);
        expect(await s.store.job({ id: first.jobId })).toMatchObject({ status: "claimed", holder: "w1", attempts: 1 });
        expect(await s.peek(a, first.runId)).toMatchObject({ runStatus: "running", leaseRunId: first.runId, leaseHolder: "w1" });
        // Held and not lapsed: nobody else claims it.
        expect(await s.store.claim({ id: first.jobId, runId: first.runId, threadId: a }, "w2", 5_000, 10_000)).toBe(false);
        expect(await s.store.heartbeat(a, first.runId, "w1", 9_000, 10_000)).toBe(true);
        expect(await s.store.claim({ id: first.jobId, runId: first.runId, threadId: a }, "w2", 15_000, 10_000)).toBe(false);
        // Lapsed (no heartbeat after 19 000): another worker claims it, the first one's heartbeat fails.
        expect(await s.store.claim({ id: first.jobId, runId: first.runId, threadId: a }, "w2", 20_000, 10_000)).toBe(true);
        expect(await s.store.job({ id: first.jobId })).toMatchObject({ holder: "w2", attempts: 2 });
        expect(await s.store.heartbeat(a, first.runId, "w1", 21_000, 10_000)).toBe(false);
        expect(await s.store.release(a, second.runId)).toBe(false);
        expect(await s.store.release(a, first.runId)).toBe(true);
        expect((await s.peek(a, first.runId)).leaseRunId).toBeNull();
        expect(await s.store.takeLease(a, second.runId)).toBe(true);
      }),
    );

    it(
      "endRun commits the run's end, the thread's status, the job done, the earlier waiting runs and the final event together; a done job is not claimed again",
      withSetup(async (s) => {
        const [a] = s.threadIds;
        const waiting = await accept(s, a);
        await s.store.takeLease(a, waiting.runId);
        expect(await s.store.claim({ id: waiting.jobId, ...waiting }, "w1", 1_000, 10_000)).toBe(true);
        await s.store.append({ threadId: a, runId: waiting.runId, type: "user_message", data: "{}" });
        expect(
          await s.store.endRun(
            { threadId: a, runId: waiting.runId, jobId: waiting.jobId, status: "awaiting_approval", endedAt: 2_000, error: null, inputTokens: 3, outputTokens: 4 },
            { type: "run_status", data: '{"status":"awaiting_approval"}' },
          ),
        ).toBe(2);
        await s.store.release(a, waiting.runId);
        expect(await s.peek(a, waiting.runId)).toMatchObject({ runStatus: "awaiting_approval", threadStatus: "awaiting_approval" });
        const resume = await accept(s, a);
        await s.store.takeLease(a, resume.runId);
        expect(await s.store.claim({ id: resume.jobId, ...resume }, "w1", 3_000, 10_000)).toBe(true);
        expect(
          await s.store.endRun(
            { threadId: a, runId: resume.runId, jobId: resume.jobId, status: "completed", endedAt: 4_000, error: null, inputTokens: 0, outputTokens: 0 },
            { type: "run_status", data: '{"status":"completed"}' },
          ),
        ).toBe(3);
        expect(await s.peek(a, resume.runId)).toMatchObject({ runStatus: "completed", threadStatus: "completed", leaseRunId: resume.runId });
        expect((await s.peek(a, waiting.runId)).runStatus).toBe("completed");
        expect((await s.store.job({ id: resume.jobId }))?.status).toBe("done");
        expect(await s.store.events({ threadId: a, types: ["run_status"] })).toEqual([
          { threadId: a, runId: waiting.runId, seq: 2, type: "run_status", data: '{"status":"awaiting_approval"}' },
          { threadId: a, runId: resume.runId, seq: 3, type: "run_status", data: '{"status":"completed"}' },
        ]);
        await s.store.release(a, resume.runId);
        await s.store.takeLease(a, resume.runId);
        expect(await s.store.claim({ id: resume.jobId, ...resume }, "w2", 90_000, 10_000)).toBe(false);
      }),
    );

    it(
      "recovery: finds lapsed leases only, requeues a claimed job for its holder once, finds queued jobs not changed lately and touches them",
      withSetup(async (s) => {
        const [a, b] = s.threadIds;
        const mine = (leases: { threadId: string }[]) => leases.filter((l) => s.threadIds.includes(l.threadId));
        const first = await accept(s, a);
        const queued = await accept(s, b);
        await s.store.takeLease(a, first.runId);
        await s.store.takeLease(b, queued.runId);
        expect(await s.store.claim({ id: first.jobId, ...first }, "w1", 1_000, 10_000)).toBe(true);
        // Held until 11 000; b's lease has no holder (queued), so it never lapses.
        expect(mine(await s.store.lapsedLeases(5_000))).toEqual([]);
        expect(mine(await s.store.lapsedLeases(20_000))).toEqual([{ threadId: a, runId: first.runId, holder: "w1" }]);
        expect(await s.store.requeue(first.jobId, "w2")).toBe(false);
        expect(await s.store.requeue(first.jobId, "w1")).toBe(true);
        expect(await s.store.job({ id: first.jobId })).toMatchObject({ status: "queued", holder: null, attempts: 1 });
        expect(await s.store.requeue(first.jobId, "w1")).toBe(false);

        const ours = (ids: string[]) => ids.filter((id) => id === first.jobId || id === queued.jobId).sort();
        await new Promise((r) => setTimeout(r, 5));
        const before = Date.now();
        expect(ours(await s.store.staleQueued(before - 60_000, 50))).toEqual([]);
        expect(ours(await s.store.staleQueued(before, 50))).toEqual([first.jobId, queued.jobId].sort());
        expect(await s.store.touchQueued(queued.jobId)).toBe(true);
        expect(ours(await s.store.staleQueued(before, 50))).toEqual([first.jobId]);
        expect(await s.store.job({ id: queued.jobId })).toMatchObject({ status: "queued", holder: null });
        expect(await s.store.claim({ id: queued.jobId, ...queued }, "w1", 1_000, 10_000)).toBe(true);
        expect(await s.store.touchQueued(queued.jobId)).toBe(false);
        expect(ours(await s.store.staleQueued(Date.now() + 1_000, 50))).toEqual([first.jobId]);
      }),
    );

    it(
      "giveUp interrupts the run and the earlier waiting runs, ends the job and frees the lease in one commit; the thread's status stays",
      withSetup(async (s) => {
        const [a] = s.threadIds;
        const waiting = await accept(s, a);
        await s.store.takeLease(a, waiting.runId);
        await s.store.claim({ id: waiting.jobId, ...waiting }, "w1", 1_000, 10_000);
        await s.store.endRun(
          { threadId: a, runId: waiting.runId, jobId: waiting.jobId, status: "awaiting_approval", endedAt: 2_000, error: null, inputTokens: 0, outputTokens: 0 },
          { type: "run_status", data: "{}" },
        );
        await s.store.release(a, waiting.runId);
        const resume = await accept(s, a);
        await s.store.takeLease(a, resume.runId);
        await s.store.claim({ id: resume.jobId, ...resume }, "w1", 3_000, 10_000);
        const threadStatus = (await s.peek(a, resume.runId)).threadStatus;
        await s.store.giveUp({ threadId: a, runId: resume.runId, jobId: resume.jobId, endedAt: 30_000, error: "The run's worker stopped 5 times." });
        expect(await s.peek(a, resume.runId)).toEqual({ runStatus: "interrupted", threadStatus, leaseRunId: null, leaseHolder: null });
        expect((await s.peek(a, waiting.runId)).runStatus).toBe("interrupted");
        expect((await s.store.job({ id: resume.jobId }))?.status).toBe("done");
        expect((await s.store.lapsedLeases(90_000)).filter((l) => l.threadId === a)).toEqual([]);
        // Another run holding the lease keeps it.
        const next = await accept(s, a);
        await s.store.takeLease(a, next.runId);
        await s.store.giveUp({ threadId: a, runId: resume.runId, jobId: resume.jobId, endedAt: 31_000, error: "again" });
        expect((await s.peek(a, next.runId)).leaseRunId).toBe(next.runId);
      }),
    );
  });
}
