import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { textTurn } from "../engine/node-fixtures";
import { CANCEL_REQUESTED } from "./run-cancel";
import { enqueueRun } from "./run-thread";
import { collect, type EngineFixture, engineFixture, lastData } from "./test-helpers";
import { type BusEvent, subscribe } from "../events/bus";
import { cancelRunJob } from "./cancel-run";
import { listThreads } from "../db/dashboard";
import { platformThreadStatus } from "../langgraph-api/status";
import { threadStatusShown } from "../run-status";
import { recoverRuns } from "./worker";

/**
 * Cancelling a run (docs/durability.md#cancel): a queued run ends at once; an executing run's
 * worker stops the graph at its next heartbeat and ends the run through its normal end; a
 * cancel whose worker died is finished by recovery instead of running the job again. Each
 * ends with the run cancelled, its job done, the lease free and a final part stored and
 * published (what followers and webhooks see).
 */
describe("cancelling a run", () => {
  let f: EngineFixture;
  const offs: (() => void)[] = [];
  afterEach(async () => {
    for (const off of offs.splice(0)) off();
    await f?.cleanup();
  });

  const ended = async (threadId: string, runId: string) => {
    const [run, job, thread, events] = await Promise.all([
      f.t.db.run.findUniqueOrThrow({ where: { id: runId } }),
      f.t.db.runJob.findUniqueOrThrow({ where: { runId } }),
      f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } }),
      f.t.db.runEvent.findMany({ where: { runId }, orderBy: { seq: "asc" } }),
    ]);
    const last = events.at(-1);
    return { run: run.status, job: job.status, lease: thread.leaseRunId, thread: thread.status, lastEvent: last && { type: last.type, status: /"status":"(\w+)"/.exec(last.data)?.[1] } };
  };
  const published = (runId: string) => {
    const seen: BusEvent[] = [];
    offs.push(subscribe("task.*", (e) => void seen.push(e), { runId }));
    return seen;
  };

  it("ends a queued run at once, and publishes its end", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const { runId } = await enqueueRun({ db: f.t.db, threadId, userId: f.userId, input: { kind: "message", text: "Summarize notes.md" }, deps: f.deps });
    const seen = published(runId);
    expect(await cancelRunJob(f.t.db, threadId, runId)).toBe("cancelled");
    expect(await ended(threadId, runId)).toEqual({ run: "cancelled", job: "done", lease: null, thread: "cancelled", lastEvent: { type: "run_suspended", status: "cancelled" } });
    expect(seen.map((e) => e.topic)).toEqual(["task.blocked"]);
    expect(await cancelRunJob(f.t.db, threadId, runId)).toBe("not_active");
  });

  it("stops an executing run at its worker's next heartbeat, through the run's own end", async () => {
    let planning: () => void = () => undefined;
    const planningStarted = new Promise<void>((r) => {
      planning = r;
    });
    const model = new MockLanguageModelV4({
      doGenerate: async (opts: LanguageModelV4CallOptions) => {
        planning();
        // A model that takes its time: the cancel comes while it thinks.
        await new Promise((r) => setTimeout(r, 8_000));
        void opts;
        return textTurn("too late");
      },
    });
    f = await engineFixture(undefined, { resolveModel: () => ({ model, provider: "mock", modelId: "mock", offline: false }) });
    const threadId = await f.newThread();
    const run = await f.prepare(threadId, { kind: "message", text: "Summarize notes.md" });
    const seen = published(run.runId);
    const chunks = collect(run);
    await planningStarted;
    expect(await cancelRunJob(f.t.db, threadId, run.runId)).toBe("requested");
    expect((await f.t.db.runJob.findUniqueOrThrow({ where: { runId: run.runId } })).status).toBe(CANCEL_REQUESTED);
    const started = Date.now();
    expect(lastData(await chunks, "data-run")?.data.status).toBe("cancelled");
    expect(Date.now() - started).toBeLessThan(7_000);
    expect(await ended(threadId, run.runId)).toEqual({ run: "cancelled", job: "done", lease: null, thread: "cancelled", lastEvent: { type: "run_suspended", status: "cancelled" } });
    const ends = seen.map((e) => e.topic).filter((t) => ["task.blocked", "task.completed", "task.failed"].includes(t));
    expect(ends).toEqual(["task.blocked"]);
  }, 20_000);

  it("ends a cancel whose worker died instead of running the job again", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const { runId, jobId } = await enqueueRun({ db: f.t.db, threadId, userId: f.userId, input: { kind: "message", text: "Summarize notes.md" }, deps: f.deps });
    // A worker claimed it, was asked to cancel, and died before its next heartbeat.
    await f.t.db.runJob.update({ where: { id: jobId }, data: { status: CANCEL_REQUESTED, holder: "dead-worker", attempts: 1 } });
    await f.t.db.thread.update({ where: { id: threadId }, data: { leaseHolder: "dead-worker", leaseExpiresAt: new Date(Date.now() - 1_000) } });
    const dispatched: string[] = [];
    const queue = { dispatch: async (id: string) => void dispatched.push(id), consume: async () => undefined, stop: async () => undefined };
    expect(await recoverRuns(f.t.db, queue as never, Date.now())).toBe(0);
    expect(dispatched).toEqual([]);
    expect(await ended(threadId, runId)).toMatchObject({ run: "cancelled", job: "done", lease: null, lastEvent: { status: "cancelled" } });
  });

  /** An earlier run of the thread that stopped to wait on an approval, as a run ended by a decision leaves it. */
  const earlierWaitingRun = async (threadId: string) => {
    const { flowVersionId } = await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } });
    return (await f.t.db.run.create({ data: { threadId, flowVersionId, kind: "start", status: "awaiting_approval", endedAt: new Date() } })).id;
  };

  it("a queued run cancelled before any worker took it gives the earlier waiting runs its end", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const waited = await earlierWaitingRun(threadId);
    const { runId } = await enqueueRun({ db: f.t.db, threadId, userId: f.userId, input: { kind: "message", text: "Summarize notes.md" }, deps: f.deps });
    expect(await cancelRunJob(f.t.db, threadId, runId)).toBe("cancelled");
    expect((await f.t.db.run.findUniqueOrThrow({ where: { id: waited } })).status).toBe("cancelled");
  });

  it("a run recovery gives up on reads interrupted everywhere, with its earlier waiting runs, and Continue stays possible", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const waited = await earlierWaitingRun(threadId);
    const { runId, jobId } = await enqueueRun({ db: f.t.db, threadId, userId: f.userId, input: { kind: "message", text: "Summarize notes.md" }, deps: f.deps });
    // Claimed as often as recovery allows, and its last worker died too.
    await f.t.db.runJob.update({ where: { id: jobId }, data: { status: "claimed", holder: "dead-worker", attempts: 5 } });
    await f.t.db.thread.update({ where: { id: threadId }, data: { leaseHolder: "dead-worker", leaseExpiresAt: new Date(Date.now() - 1_000) } });
    const queue = { dispatch: async () => undefined, consume: async () => undefined, stop: async () => undefined };
    expect(await recoverRuns(f.t.db, queue as never, Date.now())).toBe(0);
    const [run, earlier, thread] = await Promise.all([
      f.t.db.run.findUniqueOrThrow({ where: { id: runId } }),
      f.t.db.run.findUniqueOrThrow({ where: { id: waited } }),
      f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } }),
    ]);
    expect({ run: run.status, earlier: earlier.status, lease: thread.leaseRunId, stored: thread.status }).toEqual({ run: "interrupted", earlier: "interrupted", lease: null, stored: "running" });
    expect(threadStatusShown(thread)).toBe("interrupted");
    expect(platformThreadStatus(thread)).toBe("error");
    const { rows } = await listThreads(f.t.db, f.userId);
    expect(rows.find((r) => r.id === threadId)?.status).toBe("interrupted");
  });
});
