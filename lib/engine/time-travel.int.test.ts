import { afterEach, describe, expect, it } from "vitest";
import { addMember } from "../db/test-members";
import { REDACTED } from "./safe-state";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";
import { listCheckpoints, stateAt } from "./time-travel";

/**
 * Time travel, reading: the real graph on a SQLite file with the offline model;
 * the history comes from LangGraph's getStateHistory over PrismaCheckpointSaver.
 */
describe("checkpoint history", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  it("lists a thread's checkpoints newest first: ids chain to their parents, steps count down to the input, writers are the parent's tasks", async () => {
    f = await engineFixture();
    const threadId = await f.newThread("Read notes.md and tell me what it says");
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: "Read notes.md and tell me what it says" }));
    expect(lastData(chunks, "data-run")?.data.status).toBe("completed");

    const { checkpoints: all, nextBefore } = await listCheckpoints(f.t.db, f.userId, threadId);
    expect(nextBefore).toBeNull();
    expect(all.length).toBeGreaterThan(8);
    const steps = all.map((c) => c.step);
    expect(steps).toEqual([...steps].sort((a, b) => b - a));
    expect(new Set(steps).size).toBe(steps.length);
    for (const [i, c] of all.entries()) {
      const parent = all[i + 1];
      expect(c.parentId).toBe(parent?.checkpointId ?? null);
      if (parent && c.source === "loop") expect(c.writers).toEqual([...new Set(parent.next)]);
    }
    const newest = all[0];
    const oldest = all.at(-1);
    expect(newest).toMatchObject({ source: "loop", next: [], writers: ["finalizer"] });
    expect(newest?.summary).toMatchObject({ lifecycle: "COMPLETED", awaitingApproval: false, awaitingInput: false, plan: { status: "completed" } });
    expect(newest?.summary.lastMessage?.role).toBe("assistant");
    expect(oldest).toMatchObject({ source: "input", step: -1, writers: ["__input__"], next: ["__start__"], parentId: null });
    expect(all.map((c) => c.next.join(","))).toContain("executor");
    const planned = all.find((c) => c.writers.includes("planner"));
    expect(planned?.summary.plan).toMatchObject({ status: "executing", stepsCompleted: 0 });
    expect(planned?.summary.currentAgentName).toBe("Assistant");
    expect(new Date(newest?.createdAt ?? 0).getTime()).toBeGreaterThan(new Date(oldest?.createdAt ?? 0).getTime());

    // Pages: `before` goes on where the previous page stopped, without gaps or overlaps.
    const first = await listCheckpoints(f.t.db, f.userId, threadId, { limit: 4 });
    expect(first.checkpoints).toHaveLength(4);
    expect(first.nextBefore).toBe(first.checkpoints[3]?.checkpointId);
    const second = await listCheckpoints(f.t.db, f.userId, threadId, { limit: 500, before: first.nextBefore ?? "" });
    expect([...first.checkpoints, ...second.checkpoints].map((c) => c.checkpointId)).toEqual(all.map((c) => c.checkpointId));
    expect(first.checkpoints.at(-1)?.writers).toEqual(all[3]?.writers);
  });

  it("the state at a checkpoint: the plan, messages and branches of that moment, with approval tokens redacted everywhere", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval");
    // Approved from the chat: the token is in a user message and in the branch's approval_request.
    const second = await collect(await f.prepare(threadId, { kind: "message", text: `APPROVE ${a.approvalId} ${a.token}` }));
    expect(lastData(second, "data-run")?.data.status).toBe("completed");

    const { checkpoints } = await listCheckpoints(f.t.db, f.userId, threadId);
    const waiting = checkpoints.filter((c) => c.summary.awaitingApproval);
    expect(waiting.length).toBeGreaterThan(0);
    const states = await Promise.all(checkpoints.map((c) => stateAt(f.t.db, f.userId, threadId, c.checkpointId)));
    for (const s of states) expect(JSON.stringify(s)).not.toContain(a.token);
    const decided = states.find((s) => Object.values(s.values.branches as Record<string, { approval_request: { token: string | null } | null }>).some((b) => b.approval_request?.token));
    expect(Object.values(decided?.values.branches as Record<string, { approval_request: { token: string } | null }>).map((b) => b.approval_request?.token)).toContain(REDACTED);
    const last = states[0];
    expect((last?.values.messages as { content: string }[]).map((m) => m.content)).toContain(`APPROVE ${a.approvalId} ${REDACTED}`);

    // At the checkpoint where the write waits: the first step is done, the second in progress.
    const atWait = states.find((s) => s.checkpointId === waiting.at(-1)?.checkpointId);
    expect(atWait?.plan?.steps.map((s) => [s.agentName, s.status])).toEqual([
      ["Assistant", "completed"],
      ["Assistant", "in_progress"],
    ]);
    expect(atWait?.next).toContain("await_approval");
    expect(atWait?.values.thread_id).toBe(threadId);
    expect(last?.values.final_answer).toEqual(expect.stringContaining("summary.md"));
  });

  it("refuses what the user may not see: another workspace's thread and an unknown checkpoint are 404s naming them", async () => {
    f = await engineFixture();
    const threadId = await f.newThread("Read notes.md");
    await collect(await f.prepare(threadId, { kind: "message", text: "Read notes.md" }));
    const stranger = await f.t.db.user.create({ data: { email: "stranger@test.dev" } });
    await expect(listCheckpoints(f.t.db, stranger.id, threadId)).rejects.toMatchObject({ status: 404, reason: "thread_not_found" });
    const { checkpoints } = await listCheckpoints(f.t.db, f.userId, threadId);
    const some = checkpoints[2]?.checkpointId ?? "";
    await expect(stateAt(f.t.db, stranger.id, threadId, some)).rejects.toMatchObject({ status: 404, reason: "thread_not_found" });
    const ghost = "1f000000-0000-6000-8000-000000000000";
    await expect(stateAt(f.t.db, f.userId, threadId, ghost)).rejects.toMatchObject({ status: 404, reason: "checkpoint_not_found", message: expect.stringContaining(ghost) });

    // A viewer of the workspace sees the history and the states.
    const flow = await f.t.db.flow.findUniqueOrThrow({ where: { id: f.flowId } });
    const viewer = await f.t.db.user.create({ data: { email: "viewer@test.dev" } });
    await addMember(f.t.db, f.userId, flow.workspaceId, { email: "viewer@test.dev", role: "viewer" });
    expect((await listCheckpoints(f.t.db, viewer.id, threadId)).checkpoints.map((c) => c.checkpointId)).toEqual(checkpoints.map((c) => c.checkpointId));
    expect((await stateAt(f.t.db, viewer.id, threadId, some)).checkpointId).toBe(some);
  });
});
