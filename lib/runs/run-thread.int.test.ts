import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { afterEach, describe, expect, it } from "vitest";
import { replayMessages } from "./replay";
import { collect, type EngineFixture, engineFixture, lastData } from "./test-helpers";

/**
 * The Workspace assistant template end to end on the offline model, a real SQLite file and a
 * real workspace directory: plan, read, RiskGate stops the write, approval resumes the run
 * with Command({ resume }), the tool runs once.
 */
describe("run a thread", () => {
  let f: EngineFixture;
  afterEach(async () => f?.cleanup());

  it("suspends on write_file, and approving resumes the run to the end", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const plan = lastData(first, "data-plan");
    expect(plan?.data.steps.map((s) => s.task)).toHaveLength(2);
    // read_file then write_file: two distinct tool calls in the timeline, even though the
    // model reuses its call ids from step to step.
    const toolParts = first.filter((c) => c.type === "data-tool");
    expect(new Set(toolParts.map((c) => c.id)).size).toBe(2);
    const approval = lastData(first, "data-approval");
    expect(approval?.data.toolName).toBe("write_file");
    expect(lastData(first, "data-run")?.data.status).toBe("awaiting_approval");
    const summary = path.join(f.workspacesDir, threadId, "summary.md");
    expect(existsSync(summary)).toBe(false);
    expect((await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } })).status).toBe("awaiting_approval");

    const a = approval?.data;
    if (!a) throw new Error("no approval");
    const second = await collect(await f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "approve", token: a.token }));
    expect(lastData(second, "data-run")?.data.status).toBe("completed");
    const written = readFileSync(summary, "utf8");
    expect(written).toMatch(/^# Summary of notes\.md/);
    expect(JSON.parse(a.canonicalArgs).content).toBe(written);
    const text = second.filter((c) => c.type === "text").map((c) => (c.type === "text" ? c.text : ""));
    expect(text.join(" ")).toContain("summary.md");
    const row = await f.t.db.approval.findUniqueOrThrow({ where: { id: a.approvalId } });
    expect(row.status).toBe("consumed");
    // Token usage per run and per step, and the lifecycle transitions, are recorded.
    const runRow = await f.t.db.run.findFirstOrThrow({ where: { threadId, kind: "resume" } });
    expect(runRow.inputTokens).toBeGreaterThan(0);
    expect(lastData(second, "data-run")?.data.usage?.inputTokens).toBe(runRow.inputTokens);
    expect(lastData(second, "data-step")?.data.usage?.outputTokens).toBeGreaterThan(0);
    const path1 = first.filter((c) => c.type === "data-lifecycle").map((c) => (c.type === "data-lifecycle" ? c.data.to : ""));
    expect(path1).toEqual(["CONTEXT_BUILD", "PLAN_CHECK", "STEP_EXECUTION", "STEP_REVIEW", "STEP_EXECUTION", "WAIT_HUMAN"]);
    const path2 = second.filter((c) => c.type === "data-lifecycle").map((c) => (c.type === "data-lifecycle" ? c.data.to : ""));
    expect(path2.at(-1)).toBe("COMPLETED");
    // Stored run events carry the event names of lib/events/run-events.ts, in order, and replay to the same parts.
    const names = (await f.t.db.runEvent.findMany({ where: { threadId }, orderBy: { seq: "asc" }, select: { type: true } })).map((e) => e.type);
    for (const name of [
      "user_message",
      "run_started",
      "plan_generated",
      "agent_handoff",
      "agent_changed",
      "plan_step_started",
      "tool_call_proposed",
      "risk_decision",
      "tool_result",
      "plan_step_completed",
      "approval_required",
      "run_suspended",
      "plan_completed",
      "final_answer",
      "run_completed",
    ]) {
      expect(names).toContain(name);
    }
    expect(names.indexOf("approval_required")).toBeLessThan(names.indexOf("run_suspended"));
    const events = await f.t.db.runEvent.findMany({ where: { threadId }, orderBy: { seq: "asc" } });
    const replayed = replayMessages(events);
    expect(replayed.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(replayed[3]?.parts.some((p) => p.type === "text" && p.text.includes("summary.md"))).toBe(true);
    const executions = await f.t.db.auditEntry.count({ where: { threadId, action: "tool_executed", toolName: "write_file" } });
    expect(executions).toBe(1);

    await expect(f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "approve", token: a.token })).rejects.toMatchObject({ status: 409 });
  });

  it("a run stopped by a limit carries its structured error (code, severity, retryable, suggested action) in the run part", async () => {
    const doc = structuredClone(workspaceAssistant);
    doc.settings.limits.maxIterations = 1;
    f = await engineFixture(doc);
    const threadId = await f.newThread();
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: "Read notes.md and release-notes.md" }));
    const run = lastData(chunks, "data-run")?.data;
    expect(run?.status).toBe("failed");
    expect(run?.error).toMatchObject({ code: "limit_exceeded", severity: "CRITICAL", retryable: false, suggested_action: "HALT" });
    expect(run?.error?.message).toContain("1 iterations");
  });

  it("reject: the action is cancelled, the run ends incomplete and its answer names who rejected it and why, without dumping the file", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval");
    const second = await collect(await f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "reject", comment: "not now" }));
    expect(lastData(second, "data-run")?.data.status).toBe("incomplete");
    expect(existsSync(path.join(f.workspacesDir, threadId, "summary.md"))).toBe(false);
    const text = second
      .filter((c) => c.type === "text")
      .map((c) => (c.type === "text" ? c.text : ""))
      .join(" ");
    expect(text).toMatch(/Not done:\n- Step \d "[^"]+" was rejected: write_file summary\.md was not done: rejected by .+ \(not now\)\./);
    expect(text.length).toBeLessThan(1200);
    expect((await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } })).status).toBe("incomplete");
    expect((await f.t.db.approval.findUniqueOrThrow({ where: { id: a.approvalId } })).status).toBe("rejected");
  });

  it("respond: the call is not run, so the step is rejected, the run incomplete, the answer says so, and the run that waited reads how it ended", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval");
    const second = await collect(await f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "respond", comment: "Keep it under five bullets." }));
    const plan = lastData(second, "data-plan")?.data;
    expect(plan?.status).toBe("incomplete");
    expect(plan?.steps.map((st) => st.status)).toEqual(["completed", "rejected"]);
    expect(plan?.steps[1]?.error).toMatch(/^write_file summary\.md was not run: .+ did not run this call and answered: Keep it under five bullets\.$/);
    expect(lastData(second, "data-run")?.data.status).toBe("incomplete");
    const text = second
      .filter((c) => c.type === "text")
      .map((c) => (c.type === "text" ? c.text : ""))
      .join(" ");
    expect(text).toMatch(/Not done:\n- Step 2 "[^"]+" was rejected: write_file summary\.md was not run: .+ answered: Keep it under five bullets\./);
    expect(existsSync(path.join(f.workspacesDir, threadId, "summary.md"))).toBe(false);
    // docs/runs.md "Runs that waited": the first run no longer reads awaiting_approval.
    const runs = await f.t.db.run.findMany({ where: { threadId }, orderBy: { startedAt: "asc" }, select: { status: true } });
    expect(runs.map((r) => r.status)).toEqual(["incomplete", "incomplete"]);
    expect((await f.t.db.thread.findUniqueOrThrow({ where: { id: threadId } })).status).toBe("incomplete");
  });

  it("chat path: a wrong token is refused and the call keeps waiting; APPROVE <id> <token> from the thread's user runs it", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval");
    const summary = path.join(f.workspacesDir, threadId, "summary.md");

    const other = await collect(await f.prepare(threadId, { kind: "message", text: "what are you waiting for?" }));
    expect(lastData(other, "data-run")?.data.status).toBe("awaiting_approval");

    const wrong = await collect(await f.prepare(threadId, { kind: "message", text: `APPROVE ${a.approvalId} ${"x".repeat(43)}` }));
    expect(lastData(wrong, "data-run")?.data.status).toBe("awaiting_approval");
    expect(wrong.some((c) => c.type === "text" && /not accepted/.test(c.text))).toBe(true);
    expect(existsSync(summary)).toBe(false);

    const ok = await collect(await f.prepare(threadId, { kind: "message", text: `APPROVE ${a.approvalId} ${a.token}` }));
    expect(lastData(ok, "data-run")?.data.status).toBe("completed");
    expect(readFileSync(summary, "utf8")).toMatch(/^# Summary of notes\.md/);
    expect((await f.t.db.approval.findUniqueOrThrow({ where: { id: a.approvalId } })).status).toBe("consumed");
  });

  it("an expired challenge: approving is refused with 410 and nothing runs", async () => {
    f = await engineFixture();
    const threadId = await f.newThread();
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Summarize notes.md into summary.md" }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error("no approval");
    f.clock.now = new Date(a.expiresAt).getTime() + 1;
    await expect(f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "approve", token: a.token })).rejects.toMatchObject({ status: 410 });
    expect((await f.t.db.approval.findUniqueOrThrow({ where: { id: a.approvalId } })).status).toBe("expired");
    expect(existsSync(path.join(f.workspacesDir, threadId, "summary.md"))).toBe(false);
  });

  it("directed mode: the picked agent does the task as one step, no planning", async () => {
    f = await engineFixture();
    const threadId = await f.newThread("Read release-notes.md");
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: "Read release-notes.md", agentId: "assistant" }));
    expect(lastData(chunks, "data-plan")?.data.steps.map((s) => [s.task, s.agentName, s.status])).toEqual([["Read release-notes.md", "Assistant", "completed"]]);
    expect(lastData(chunks, "data-run")?.data.status).toBe("completed");
    const lifecycle = chunks.filter((c) => c.type === "data-lifecycle").map((c) => (c.type === "data-lifecycle" ? c.data.to : ""));
    expect(lifecycle).not.toContain("PLAN_CHECK");
    await expect(f.prepare(threadId, { kind: "message", text: "Read notes.md", agentId: "ghost" })).rejects.toMatchObject({ status: 422 });
  });
});
