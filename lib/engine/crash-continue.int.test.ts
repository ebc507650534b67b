import { afterEach, describe, expect, it } from "vitest";
import { collect, type EngineFixture, engineFixture, lastData } from "./test-helpers";

/**
 * A run that stops between two steps (the server went away mid-stream) continues from its
 * last checkpoint, exactly where it stopped: the plan is the same and no tool runs twice
 * (every step is checkpointed: docs/architecture.md#the-graph).
 */
describe("continue after a crash", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  it("continues from the last checkpoint without repeating finished work", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const run = await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" });
    let planId = "";
    for await (const chunk of run.stream()) {
      if (chunk.type === "data-plan") planId = chunk.data.planId;
      // Stop the stream as a dying server would: right after the read finished.
      if (chunk.type === "data-tool" && chunk.data.toolName === "read_file" && chunk.data.status === "done") break;
    }
    expect(planId).not.toBe("");
    expect((await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } })).status).toBe("running");

    const rest = await collect(await f.prepare(threadId, { kind: "continue" }));
    expect(lastData(rest, "data-run")?.data.status).toBe("awaiting_approval");
    expect(lastData(rest, "data-plan")?.data.planId).toBe(planId);
    expect(lastData(rest, "data-approval")?.data.toolName).toBe("write_file");
    expect(await f.t.db.auditEntry.count({ where: { threadId, action: "tool_executed", toolName: "read_file" } })).toBe(1);
    expect((await f.t.db.run.findFirstOrThrow({ where: { threadId, kind: "start" } })).status).toBe("interrupted");
    // Nothing left to continue now: the run waits for approval.
    await expect(f.prepare(threadId, { kind: "continue" })).rejects.toMatchObject({ status: 409 });
  });

  it("a run killed after its approval was checkpointed but before its status was saved shows the same card again", async () => {
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
