import { afterEach, describe, expect, it } from "vitest";
import { startWorker } from "./worker";
import { collect, type EngineFixture, engineFixture, lastData } from "./test-helpers";

async function waitFor(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the recovered run");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A run that stops between two steps (the server went away mid-stream) continues from its
 * last checkpoint, exactly where it stopped: the plan is the same and no tool runs twice
 * (every step is checkpointed: docs/architecture.md#the-graph).
 */
describe("continue after a crash", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  it("a run whose worker died is recovered by a worker from its last checkpoint, without repeating finished work", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const run = await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" });
    let planId = "";
    for await (const chunk of run.stream()) {
      if (chunk.type === "data-plan") planId = chunk.data.planId;
      // The worker dies right after the read finished: nothing after it runs.
      if (chunk.type === "data-tool" && chunk.data.toolName === "read_file" && chunk.data.status === "done") break;
    }
    expect(planId).not.toBe("");
    const held = await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } });
    expect(held).toMatchObject({ status: "running", leaseRunId: run.runId });
    expect(held.leaseHolder).toMatch(/^inline:/);
    // Until the lease lapses, the run is still owned: no second run, no continue.
    await expect(f.prepare(threadId, { kind: "message", text: "again" })).rejects.toMatchObject({ status: 409, reason: "run_in_progress" });
    // Its heartbeat stopped with it: the lease lapses.
    await f.t.db.thread.update({ where: { id: threadId }, data: { leaseExpiresAt: new Date(f.clock.now - 1) } });

    const worker = await startWorker({ db: f.t.db, databaseUrl: f.t.url, concurrency: 1, deps: f.deps, recoverySweepMs: 50 });
    try {
      await waitFor(async () => (await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } })).status === "awaiting_approval");
    } finally {
      await worker.stop();
    }
    const events = await f.t.db.runEvent.findMany({ where: { threadId }, orderBy: { seq: "asc" } });
    const plans = events.filter((e) => e.type === "plan_generated" || e.type === "plan_updated").map((e) => (JSON.parse(e.data) as { data: { planId: string } }).data.planId);
    expect(new Set(plans)).toEqual(new Set([planId]));
    expect(events.filter((e) => e.type === "approval_required")).toHaveLength(1);
    expect(await f.t.db.auditEntry.count({ where: { threadId, action: "tool_executed", toolName: "read_file" } })).toBe(1);
    // The same run carried on (no second Run row), claimed twice, and freed the thread.
    expect(await f.t.db.run.count({ where: { threadId } })).toBe(1);
    expect(await f.t.db.run.findUniqueOrThrow({ where: { id: run.runId } })).toMatchObject({ status: "awaiting_approval" });
    expect(await f.t.db.runJob.findUniqueOrThrow({ where: { runId: run.runId } })).toMatchObject({ status: "done", attempts: 2 });
    expect(await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } })).toMatchObject({ leaseRunId: null, leaseHolder: null });
    // Nothing to continue by hand: the run waits for approval.
    await expect(f.prepare(threadId, { kind: "continue" })).rejects.toMatchObject({ status: 409 });
  });

  // Continue is for what needs a person: a thread left running without a lease (recovery gave
  // up on it, or it predates leases).
  it("continue: a run cut off after its approval was checkpointed but before its status was saved shows the same card again", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const approvalId = lastData(first, "data-approval")?.data.approvalId;
    expect(approvalId).toBeTruthy();
    // The kill landed between the interrupt's checkpoint and the run's bookkeeping.
    await f.t.db.thread.update({ where: { id: threadId }, data: { status: "running" } });
    await f.t.db.run.updateMany({ where: { threadId }, data: { status: "running", endedAt: null } });

    const rest = await collect(await f.prepare(threadId, { kind: "continue" }));
    expect(lastData(rest, "data-run")?.data.status).toBe("awaiting_approval");
    expect(await f.t.db.approval.count({ where: { threadId } })).toBe(1);
    expect((await f.t.db.approval.findFirstOrThrow({ where: { threadId } })).id).toBe(approvalId);
    expect((await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } })).status).toBe("awaiting_approval");
    await expect(f.prepare(threadId, { kind: "continue" })).rejects.toMatchObject({ status: 409 });
  });
});
