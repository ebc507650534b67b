import { afterEach, describe, expect, it } from "vitest";
import { subscribe } from "../events/bus";
import { startWorker } from "./worker";
import { installWebhookRecorder } from "../webhooks/record";
import { type CrashPoint, END_CRASH_POINTS, WorkerKilled } from "./crash-points";
import { executeJob } from "./run-execute";
import { enqueueRun } from "./run-thread";
import type { GraphStateValue } from "../engine/state";
import { type EngineFixture, engineFixture } from "./test-helpers";

/**
 * A worker killed at every line between a step's checkpoint and its events, and between the
 * run's end and its final part (docs/durability.md "Events after a crash"). The kill is a
 * crash-point hook that throws WorkerKilled: the run stops there writing nothing more and
 * keeping its lease, as after a SIGKILL. A worker's recovery then finds the lapsed lease and
 * finishes the run. Whatever the point, the run ends completed with its events written
 * exactly once: one run_completed, the plan and each step as the state says, the final
 * lifecycle transition, one answer, no event twice, one run.finished webhook.
 *
 * Runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
const TASK = "Summarize notes.md";

describe("a worker killed between a checkpoint and its events", () => {
  let f: EngineFixture;
  const offs: (() => void)[] = [];
  afterEach(async () => {
    for (const off of offs.splice(0)) off();
    await f?.cleanup();
  });

  /** Runs TASK on a new thread, killing the worker at `point` (or never); answers the thread and run. */
  async function runUntil(point: CrashPoint | null): Promise<{ threadId: string; runId: string; killed: boolean; parts: number }> {
    const threadId = await f.newThread(TASK);
    const accepted = await enqueueRun({ db: f.t.db, threadId, userId: f.userId, input: { kind: "message", text: TASK }, deps: f.deps });
    let parts = 0;
    const crashPoint = (p: CrashPoint) => {
      if (p.startsWith("event:")) parts = Number(p.slice(6));
      if (p === point) throw new WorkerKilled(p);
    };
    let killed = false;
    try {
      for await (const _ of executeJob({ db: f.t.db, jobId: accepted.jobId, workerId: "worker:dead", deps: f.deps, crashPoint })) {
        // drain
      }
    } catch (err) {
      if (!(err instanceof WorkerKilled)) throw err;
      killed = true;
    }
    return { threadId, runId: accepted.runId, killed, parts };
  }

  async function recover(threadId: string): Promise<void> {
    // The dead worker's heartbeat stopped with it: its lease lapses.
    await f.t.db.thread.updateMany({ where: { id: threadId, leaseRunId: { not: null } }, data: { leaseExpiresAt: new Date(Date.now() - 60_000) } });
    const worker = await startWorker({ db: f.t.db, databaseUrl: f.t.url, concurrency: 1, deps: f.deps, recoverySweepMs: 50 });
    try {
      const deadline = Date.now() + 30_000;
      for (;;) {
        const t = await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId }, select: { leaseRunId: true, status: true } });
        if (t.leaseRunId === null && t.status !== "running") break;
        if (Date.now() > deadline) throw new Error(`thread ${threadId} was not recovered`);
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await worker.stop();
    }
  }

  /** Everything the timeline must say once the run is over, whatever the kill point. */
  async function expectWholeTimeline(threadId: string, runId: string, label: string): Promise<void> {
    const db = f.t.db;
    expect(await db.run.findUniqueOrThrow({ where: { id: runId } }), label).toMatchObject({ status: "completed" });
    expect(await db.runJob.findUniqueOrThrow({ where: { runId } }), label).toMatchObject({ status: "done" });
    expect(await db.thread.findUniqueOrThrow({ where: { id: threadId } }), label).toMatchObject({ status: "completed", leaseRunId: null });
    const events = await db.runEvent.findMany({ where: { threadId }, orderBy: { seq: "asc" }, select: { type: true, data: true } });
    const count = (type: string) => events.filter((e) => e.type === type).length;
    expect(count("run_completed"), label).toBe(1);
    expect(count("final_answer"), label).toBe(1);
    expect(count("plan_completed"), label).toBeGreaterThanOrEqual(1);
    // No event stored twice.
    const keys = events.map((e) => `${e.type}\n${e.data}`);
    expect(keys.length - new Set(keys).size, label).toBe(0);
    // The last word of the timeline on the plan, each step and the lifecycle is the state's.
    const ctxState = (await db.checkpoint.count({ where: { threadId } })) > 0;
    expect(ctxState, label).toBe(true);
    const parsed = events.map((e) => ({ type: e.type, data: JSON.parse(e.data) as { type: string; data: Record<string, unknown> } }));
    const lastOf = (pred: (p: (typeof parsed)[number]) => boolean) => parsed.filter(pred).at(-1)?.data.data;
    const plan = lastOf((p) => p.data.type === "data-plan") as { status: string; steps: { id: string; status: string }[] } | undefined;
    expect(plan?.status, label).toBe("completed");
    for (const step of plan?.steps ?? []) {
      expect((lastOf((p) => p.data.type === "data-step" && p.data.data.id === step.id) as { status: string } | undefined)?.status, `${label} step ${step.id}`).toBe(step.status);
    }
    expect((lastOf((p) => p.type === "lifecycle_transition") as { to: string } | undefined)?.to, label).toBe("COMPLETED" satisfies GraphStateValue["lifecycle"]);
    // The webhook of the run's end: exactly one delivery.
    expect(await db.webhookDelivery.count({ where: { eventKey: `run.finished:${runId}` } }), label).toBe(1);
  }

  it("at every event of the run and every line of its end, recovery writes the missing events once: no duplicate, one run.finished", async () => {
    f = await engineFixture();
    // Leases taken by the runs expire by the real clock, as the recovery sweep reads it.
    Object.defineProperty(f.clock, "now", { get: () => Date.now() });
    const flow = await f.t.db.flow.findUniqueOrThrow({ where: { id: f.flowId }, select: { workspaceId: true } });
    await f.t.db.webhookEndpoint.create({ data: { workspaceId: flow.workspaceId, url: "https://hooks.example.com/x", events: JSON.stringify(["run.finished"]), secret: "x", createdById: f.userId } });
    offs.push(installWebhookRecorder(f.t.db));
    const ended = new Map<string, number>();
    offs.push(
      subscribe("task.completed", (e) => {
        if (e.runId) ended.set(e.runId, (ended.get(e.runId) ?? 0) + 1);
      }),
    );

    // A run without a kill: how many parts it streams.
    const whole = await runUntil(null);
    expect(whole.killed).toBe(false);
    await expectWholeTimeline(whole.threadId, whole.runId, "no kill");
    const points: CrashPoint[] = [...Array.from({ length: whole.parts }, (_, i) => `event:${i + 1}` as const), ...END_CRASH_POINTS];
    expect(points.length).toBeGreaterThan(10);

    for (const point of points) {
      const run = await runUntil(point);
      expect(run.killed, point).toBe(true);
      await recover(run.threadId);
      await expectWholeTimeline(run.threadId, run.runId, point);
      // The after-run subscribers (memory hooks, webhooks) saw the end; twice only when the
      // kill came after they had, before the lease was released (they are idempotent).
      expect(ended.get(run.runId), point).toBe(point === "after_final_published" ? 2 : 1);
    }
  }, 600_000);
});
