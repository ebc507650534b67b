import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PrismaCheckpointSaver } from "../db/checkpointer";
import { addMember } from "../db/test-members";
import { ForkedFromEvent, forkThread, THREAD_FORKED } from "./fork-thread";
import { collect, type EngineFixture, engineFixture, lastData } from "./test-helpers";
import { type CheckpointEntry, historyGraph, listCheckpoints } from "../engine/time-travel";

/**
 * Fork from a checkpoint on the real graph, a SQLite file and real workspace
 * directories with the offline model: the fork re-runs from the copied checkpoint in its own
 * thread, records its origin, leaves the origin untouched, and never lets the origin's
 * approvals decide anything in it.
 */
describe("fork a thread from a checkpoint", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  /** What must not change on the origin when it is forked. */
  async function originSnapshot(threadId: string) {
    const checkpoints = (await listCheckpoints(f.t.db, f.userId, threadId)).checkpoints.map((c) => c.checkpointId);
    const thread = await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } });
    const events = await f.t.db.runEvent.count({ where: { threadId } });
    const audit = await f.t.db.auditEntry.count({ where: { threadId } });
    const approvals = await f.t.db.approval.findMany({ where: { threadId }, select: { id: true, status: true }, orderBy: { id: "asc" } });
    const files = readdirSync(path.join(f.workspacesDir, threadId)).sort();
    return { checkpoints, status: thread.status, events, audit, approvals, files };
  }

  const stateOf = async (threadId: string) => {
    const thread = await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId }, include: { flowVersion: true } });
    return (await historyGraph(f.t.db, thread.flowVersion.document).graph.getState({ configurable: { thread_id: threadId } })).values as Record<string, unknown>;
  };

  it("forking before a step and continuing re-runs the step in the new thread; the fork records its origin; the origin is untouched", async () => {
    f = await engineFixture();
    const task = "Read notes.md and tell me what it says";
    const origin = await f.newThread(task);
    const ran = await collect(await f.prepare(origin, { kind: "message", text: task }));
    expect(lastData(ran, "data-run")?.data.status).toBe("completed");
    const history = (await listCheckpoints(f.t.db, f.userId, origin)).checkpoints;
    // The oldest checkpoint from which the Executor runs: the plan's step is in progress, nothing read yet.
    const before = history.filter((c) => c.next.includes("executor")).at(-1) as CheckpointEntry;
    expect(before.summary.plan?.current?.status).toBe("in_progress");
    const was = await originSnapshot(origin);

    const fork = await forkThread(f.t.db, f.userId, origin, before.checkpointId, { workspacesDir: f.workspacesDir });
    expect(fork.status).toBe("running");
    const row = await f.t.db.thread.findUniqueOrThrow({ where: { id: fork.threadId } });
    const originRow = await f.t.db.thread.findUniqueOrThrow({ where: { id: origin } });
    expect(row).toMatchObject({
      forkedFromThreadId: origin,
      forkedFromCheckpointId: before.checkpointId,
      title: `Fork of ${task}`,
      userId: f.userId,
      flowVersionId: originRow.flowVersionId,
      status: "running",
    });
    const forkHistory = (await listCheckpoints(f.t.db, f.userId, fork.threadId)).checkpoints;
    expect(forkHistory).toHaveLength(1);
    expect(forkHistory[0]).toMatchObject({
      checkpointId: fork.checkpointId,
      source: "fork",
      step: before.step + 1,
      next: before.next,
      forkedFrom: { thread_id: origin, checkpoint_id: before.checkpointId, step: before.step },
    });
    const event = await f.t.db.runEvent.findFirstOrThrow({ where: { threadId: fork.threadId, type: THREAD_FORKED } });
    expect(ForkedFromEvent.parse(JSON.parse(event.data).payload)).toMatchObject({
      fromThreadId: origin,
      fromTitle: task,
      checkpointId: before.checkpointId,
      step: before.step,
      workspaceCopied: true,
      dropped: [],
    });
    expect(await f.t.db.auditEntry.count({ where: { threadId: fork.threadId, action: THREAD_FORKED, actorId: f.userId } })).toBe(1);
    // The copied state belongs to the fork: the nodes take the thread id from it.
    expect(await stateOf(fork.threadId)).toMatchObject({ thread_id: fork.threadId, user_id: f.userId, run_started_at: 0 });
    expect(readdirSync(path.join(f.workspacesDir, fork.threadId)).sort()).toEqual(was.files);

    const cont = await collect(await f.prepare(fork.threadId, { kind: "continue" }));
    expect(lastData(cont, "data-run")?.data.status).toBe("completed");
    // The step ran again here: its read, the step's end, the final answer.
    const read = cont.filter((c) => c.type === "data-tool" && c.data.toolName === "read_file").at(-1);
    expect(read?.type === "data-tool" && read.data.status).toBe("done");
    expect(cont.some((c) => c.type === "data-step" && c.data.event === "plan_step_completed")).toBe(true);
    expect(cont.some((c) => c.type === "text" && c.text.length > 0)).toBe(true);
    expect(await f.t.db.auditEntry.count({ where: { threadId: fork.threadId, action: "tool_executed", toolName: "read_file" } })).toBe(1);
    const after = (await listCheckpoints(f.t.db, f.userId, fork.threadId)).checkpoints;
    expect(after.length).toBeGreaterThan(3);
    expect(after.at(-1)?.checkpointId).toBe(fork.checkpointId);
    expect(after[0]?.summary).toMatchObject({ lifecycle: "COMPLETED", plan: { status: "completed" } });
    expect((await f.t.db.thread.findUniqueOrThrow({ where: { id: fork.threadId } })).status).toBe("completed");

    expect(await originSnapshot(origin)).toEqual(was);
  });

  it("a fork of a finished run keeps the conversation; a message starts a new task on it", async () => {
    f = await engineFixture();
    const origin = await f.newThread("Read notes.md");
    await collect(await f.prepare(origin, { kind: "message", text: "Read notes.md" }));
    const newest = (await listCheckpoints(f.t.db, f.userId, origin)).checkpoints[0] as CheckpointEntry;
    const fork = await forkThread(f.t.db, f.userId, origin, newest.checkpointId, { workspacesDir: f.workspacesDir });
    expect(fork.status).toBe("completed");
    expect(fork.event.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(fork.event.plan?.status).toBe("completed");
    const chunks = await collect(await f.prepare(fork.threadId, { kind: "message", text: "Read release-notes.md" }));
    expect(lastData(chunks, "data-run")?.data.status).toBe("completed");
    const messages = (await stateOf(fork.threadId)).messages as { role: string; content: string }[];
    expect(messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["Read notes.md", "Read release-notes.md"]);
    expect(((await stateOf(origin)).messages as unknown[]).length).toBe(2);
  });

  it("at a checkpoint where a write waits for approval: the origin's approval cannot decide the fork; the agent proposes again and a challenge bound to the fork decides", async () => {
    f = await engineFixture();
    const origin = await f.newThread();
    const first = await collect(await f.prepare(origin, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval");
    const waiting = (await listCheckpoints(f.t.db, f.userId, origin)).checkpoints[0] as CheckpointEntry;
    expect(waiting.summary.awaitingApproval).toBe(true);
    expect(waiting.next).toEqual(["await_approval"]);
    // A file written in the origin after that checkpoint travels with the workspace copy.
    writeFileSync(path.join(f.workspacesDir, origin, "later.md"), "written after the checkpoint\n");

    const fork = await forkThread(f.t.db, f.userId, origin, waiting.checkpointId, { workspacesDir: f.workspacesDir });
    expect(fork.status).toBe("running");
    expect(fork.event.dropped).toEqual([{ stepId: expect.any(String), tool: "write_file", approvalId: a.approvalId }]);
    expect((await listCheckpoints(f.t.db, f.userId, fork.threadId)).checkpoints[0]?.next).toEqual(["executor"]);
    expect(readFileSync(path.join(f.workspacesDir, fork.threadId, "later.md"), "utf8")).toContain("after the checkpoint");
    // The origin's challenge is not one the fork waits on, token or not.
    await expect(f.prepare(fork.threadId, { kind: "decision", approvalId: a.approvalId, decision: "approve", token: a.token })).rejects.toMatchObject({ status: 409, reason: "no_pending_approval" });

    const cont = await collect(await f.prepare(fork.threadId, { kind: "continue" }));
    expect(lastData(cont, "data-run")?.data.status).toBe("awaiting_approval");
    const b = lastData(cont, "data-approval")?.data;
    if (!b) throw new Error("the fork's agent did not propose the write again");
    expect(b.approvalId).not.toBe(a.approvalId);
    expect(b.toolName).toBe("write_file");
    expect(b.argsHash).toBe(a.argsHash);
    expect(await f.t.db.approval.findUniqueOrThrow({ where: { id: b.approvalId } })).toMatchObject({ threadId: fork.threadId, userId: f.userId, status: "pending" });
    // The origin's token does not open the fork's challenge, nor does the chat path.
    await expect(f.prepare(fork.threadId, { kind: "decision", approvalId: b.approvalId, decision: "approve", token: a.token })).rejects.toMatchObject({ status: 403, reason: "bad_token" });
    const chat = await collect(await f.prepare(fork.threadId, { kind: "message", text: `APPROVE ${a.approvalId} ${a.token}` }));
    expect(lastData(chat, "data-run")?.data.status).toBe("awaiting_approval");
    expect(existsSync(path.join(f.workspacesDir, fork.threadId, "summary.md"))).toBe(false);

    const done = await collect(await f.prepare(fork.threadId, { kind: "decision", approvalId: b.approvalId, decision: "approve", token: b.token }));
    expect(lastData(done, "data-run")?.data.status).toBe("completed");
    expect(readFileSync(path.join(f.workspacesDir, fork.threadId, "summary.md"), "utf8")).toMatch(/^# Summary of notes\.md/);
    // The origin still waits on its own challenge, which still works there.
    expect(existsSync(path.join(f.workspacesDir, origin, "summary.md"))).toBe(false);
    expect(await f.t.db.approval.findUniqueOrThrow({ where: { id: a.approvalId } })).toMatchObject({ status: "pending", threadId: origin });
    const originDone = await collect(await f.prepare(origin, { kind: "decision", approvalId: a.approvalId, decision: "approve", token: a.token }));
    expect(lastData(originDone, "data-run")?.data.status).toBe("completed");
  });

  it("a decision in flight at the checkpoint is dropped too, and no token is copied into the fork", async () => {
    f = await engineFixture();
    const origin = await f.newThread();
    const first = await collect(await f.prepare(origin, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval");
    await collect(await f.prepare(origin, { kind: "message", text: `APPROVE ${a.approvalId} ${a.token}` }));
    // The checkpoint where the chat approval reached the branch and the ApprovalHandler runs next.
    const decided = (await listCheckpoints(f.t.db, f.userId, origin)).checkpoints.find((c) => c.next.includes("approval_handler")) as CheckpointEntry;
    expect(decided).toBeDefined();
    const fork = await forkThread(f.t.db, f.userId, origin, decided.checkpointId, { workspacesDir: f.workspacesDir });
    expect(fork.event.dropped.map((d) => [d.tool, d.approvalId])).toEqual([["write_file", a.approvalId]]);
    const stored = await new PrismaCheckpointSaver(f.t.db).getTuple({ configurable: { thread_id: fork.threadId } });
    expect(JSON.stringify(stored?.checkpoint.channel_values)).not.toContain(a.token);
    expect(JSON.stringify(fork.event)).not.toContain(a.token);
    const cont = await collect(await f.prepare(fork.threadId, { kind: "continue" }));
    expect(lastData(cont, "data-run")?.data.status).toBe("awaiting_approval");
    expect(lastData(cont, "data-approval")?.data.approvalId).not.toBe(a.approvalId);
  });

  it("an evicted output the state points to is copied to the fork under a new id, and the pointer follows", async () => {
    f = await engineFixture();
    const origin = await f.newThread("Read big.md");
    mkdirSync(path.join(f.workspacesDir, origin), { recursive: true });
    writeFileSync(path.join(f.workspacesDir, origin, "big.md"), `# Big\n${"All work and no play. ".repeat(800)}\n`);
    const ran = await collect(await f.prepare(origin, { kind: "message", text: "Read big.md" }));
    const read = lastData(ran, "data-tool");
    const pointer = read?.data.evicted?.pointer ?? "";
    expect(pointer).toMatch(/^blob:/);
    // After the Tools node: the branch's last result is the eviction marker with its pointer.
    const afterTools = (await listCheckpoints(f.t.db, f.userId, origin)).checkpoints.find((c) => c.next.includes("interpreter")) as CheckpointEntry;
    const fork = await forkThread(f.t.db, f.userId, origin, afterTools.checkpointId, { workspacesDir: f.workspacesDir });
    const copies = await f.t.db.evictedBlob.findMany({ where: { threadId: fork.threadId } });
    expect(copies).toHaveLength(1);
    const original = await f.t.db.evictedBlob.findUniqueOrThrow({ where: { id: pointer.slice(5) } });
    expect(copies[0]).toMatchObject({ content: original.content, sizeChars: original.sizeChars, toolName: "read_file" });
    expect(copies[0]?.id).not.toBe(original.id);
    const stored = JSON.stringify((await new PrismaCheckpointSaver(f.t.db).getTuple({ configurable: { thread_id: fork.threadId } }))?.checkpoint.channel_values);
    expect(stored).toContain(`blob:${copies[0]?.id}`);
    expect(stored).not.toContain(pointer);
    const cont = await collect(await f.prepare(fork.threadId, { kind: "continue" }));
    expect(lastData(cont, "data-run")?.data.status).toBe("completed");
    expect(await f.t.db.evictedBlob.count({ where: { threadId: origin } })).toBe(1);
  });

  it("refuses viewers (403), other workspaces (404) and unknown checkpoints (404 naming it), and leaves nothing behind", async () => {
    f = await engineFixture();
    const origin = await f.newThread("Read notes.md");
    await collect(await f.prepare(origin, { kind: "message", text: "Read notes.md" }));
    const some = (await listCheckpoints(f.t.db, f.userId, origin)).checkpoints[3] as CheckpointEntry;
    const flow = await f.t.db.flow.findUniqueOrThrow({ where: { id: f.flowId } });
    const viewer = await f.t.db.user.create({ data: { email: "viewer@test.dev" } });
    const approver = await f.t.db.user.create({ data: { email: "approver@test.dev" } });
    const stranger = await f.t.db.user.create({ data: { email: "stranger@test.dev" } });
    await addMember(f.t.db, f.userId, flow.workspaceId, { email: "viewer@test.dev", role: "viewer" });
    await addMember(f.t.db, f.userId, flow.workspaceId, { email: "approver@test.dev", role: "approver" });
    const threads = await f.t.db.thread.count();

    await expect(forkThread(f.t.db, viewer.id, origin, some.checkpointId, { workspacesDir: f.workspacesDir })).rejects.toMatchObject({ status: 403, reason: "role_forbidden" });
    await expect(forkThread(f.t.db, stranger.id, origin, some.checkpointId, { workspacesDir: f.workspacesDir })).rejects.toMatchObject({ status: 404, reason: "thread_not_found" });
    const ghost = "1f000000-0000-6000-8000-000000000000";
    await expect(forkThread(f.t.db, f.userId, origin, ghost, { workspacesDir: f.workspacesDir })).rejects.toMatchObject({
      status: 404,
      reason: "checkpoint_not_found",
      message: expect.stringContaining(ghost),
    });
    expect(await f.t.db.thread.count()).toBe(threads);

    // An approver may run, so may fork; the fork is theirs.
    const fork = await forkThread(f.t.db, approver.id, origin, some.checkpointId, { workspacesDir: f.workspacesDir });
    expect((await f.t.db.thread.findUniqueOrThrow({ where: { id: fork.threadId } })).userId).toBe(approver.id);
    expect(await stateOf(fork.threadId)).toMatchObject({ user_id: approver.id });
  });
});
