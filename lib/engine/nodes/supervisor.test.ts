import { Overwrite } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { newBranch } from "../branch";
import type { Plan, PlanStep, StepBranch } from "../state";
import { assistantAgent, baseState, fakeDeps, gotoOf, plan, recorder, step, targets, updateOf } from "./fake-deps";
import { supervisorNode } from "./supervisor";

/** Supervisor (docs/architecture.md#nodes): joins step branches, delegates, retries, enforces the limits. */

const planOf = (u: ReturnType<typeof updateOf>) => u.plan as Plan;
const done = (stepId: string, text: string, ok: boolean, extra: Partial<StepBranch> = {}): StepBranch => ({
  ...newBranch(stepId, assistantAgent),
  phase: "done",
  output: { step_id: stepId, text, ok },
  ...extra,
});
/** Step s0 in progress (at `tries`) with branch `b`, and s1 pending after it. */
const twoSteps = (tries: number, b: StepBranch, s0: Partial<PlanStep> = {}) =>
  baseState({ plan: plan([step(0, { status: "in_progress", tries, ...s0 }), step(1, { depends_on: ["s0"] })]), branches: { s0: b } });

describe("supervisorNode", () => {
  it("delegates the first pending step: in progress, try 1, handoff, current agent, Executor", async () => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const cmd = await supervisorNode(deps)(baseState({ plan: plan([step(0), step(1, { depends_on: ["s0"] })]) }), config as never);
    const t = targets(cmd);
    expect(t.map((x) => [x.node, x.arg?.branch.step_id])).toEqual([["executor", "s0"]]);
    expect(t[0]?.arg?.branch).toEqual(newBranch("s0", assistantAgent));
    const u = updateOf(cmd);
    expect(planOf(u).steps.map((s) => [s.id, s.status, s.tries])).toEqual([
      ["s0", "in_progress", 1],
      ["s1", "pending", 0],
    ]);
    expect(planOf(u).steps[0]?.started_at).toBe(new Date(deps.clock.now).toISOString());
    expect(u).toMatchObject({ iterations: 1, current_agent: assistantAgent, lifecycle: "STEP_EXECUTION" });
    expect(u.handoffs).toEqual([
      { id: expect.any(String), from: "supervisor", to: "assistant", reason: "plan_step", explanation: "Step 1: Task 0", step_id: "s0", timestamp: new Date(deps.clock.now).toISOString() },
    ]);
    expect(u.branches).toEqual({ s0: newBranch("s0", assistantAgent) });
    expect(chunks.map((c) => c.type)).toEqual(["data-plan", "data-handoff", "data-step"]);
    expect(chunks[1]).toMatchObject({ data: { from: "supervisor", to: "assistant", agentName: "Assistant", reason: "plan_step", stepId: "s0" } });
    expect(chunks[2]).toMatchObject({ id: "s0", data: { event: "plan_step_started", status: "in_progress", tries: 1 } });
  });

  it("a branch done with an answer completes its step, then the next step is delegated", async () => {
    const { config, chunks } = recorder();
    const cmd = await supervisorNode(fakeDeps())(twoSteps(1, done("s0", "read it", true)), config as never);
    const steps = planOf(updateOf(cmd)).steps;
    expect(steps.map((s) => [s.status, s.result])).toEqual([
      ["completed", "read it"],
      ["in_progress", null],
    ]);
    expect(planOf(updateOf(cmd)).current_step_index).toBe(1);
    expect(targets(cmd).map((x) => [x.node, x.arg?.branch.step_id])).toEqual([["executor", "s1"]]);
    expect(chunks.filter((c) => c.type === "data-step").map((c) => (c.type === "data-step" ? [c.id, c.data.event] : null))).toEqual([
      ["s0", "plan_step_completed"],
      ["s1", "plan_step_started"],
    ]);
    // The settled branch keeps its outcome but drops its working conversation.
    expect((updateOf(cmd).branches as Record<string, StepBranch>).s0).toMatchObject({ executor_messages: [], tool_history: [], output: { ok: true } });
  });

  it("all steps done -> plan completed with a summary -> Finalizer", async () => {
    const state = baseState({
      plan: plan([step(0, { status: "completed", result: "first" }), step(1, { status: "in_progress", tries: 1 })]),
      branches: { s1: done("s1", "second", true) },
    });
    const cmd = await supervisorNode(fakeDeps())(state);
    expect(gotoOf(cmd)).toBe("finalizer");
    expect(updateOf(cmd)).toMatchObject({ lifecycle: "GLOBAL_REVIEW", plan: { status: "completed", summary: "first\n\nsecond" } });
  });

  it("a failed try with tries < max_tries is delegated again with reason error_recovery", async () => {
    const cmd = await supervisorNode(fakeDeps())(twoSteps(1, done("s0", "model error: rate limited", false)));
    const t = targets(cmd);
    expect(t.map((x) => [x.node, x.arg?.branch.step_id])).toEqual([["executor", "s0"]]);
    // A fresh branch: the failed conversation is not carried into the retry.
    expect(t[0]?.arg?.branch).toEqual(newBranch("s0", assistantAgent));
    const u = updateOf(cmd);
    expect(planOf(u).steps[0]).toMatchObject({ status: "in_progress", tries: 2, error: "model error: rate limited" });
    expect(u.handoffs).toMatchObject([{ reason: "error_recovery", step_id: "s0", explanation: expect.stringContaining("rate limited") }]);
  });

  it("the last try failing fails the step and the plan, and escalates to a new plan once", async () => {
    const cmd = await supervisorNode(fakeDeps())(twoSteps(3, done("s0", "model error: down", false)));
    expect(gotoOf(cmd)).toBe("planner");
    const u = updateOf(cmd);
    expect(planOf(u)).toMatchObject({ status: "failed", steps: [{ status: "failed", tries: 3, error: "model error: down" }, { status: "pending" }] });
    expect(u).toMatchObject({ replans: 1, lifecycle: "REPLAN" });
    expect(u.replan_reason).toBe('Step 1 ("Task 0") failed after 3 tries: model error: down');
    expect(u.branches).toBeInstanceOf(Overwrite);
  });

  it("after one re-plan, an exhausted step fails the plan and asks the user through the Finalizer", async () => {
    const cmd = await supervisorNode(fakeDeps())({ ...twoSteps(3, done("s0", "still broken", false)), replans: 1 });
    expect(gotoOf(cmd)).toBe("finalizer");
    expect(updateOf(cmd)).toMatchObject({ plan: { status: "failed" }, awaiting_user_input: true, lifecycle: "WAIT_HUMAN" });
    expect(updateOf(cmd).question).toContain("still broken");
  });

  it("a rejected action is final: the step is rejected (no retry), the step that needs it is skipped saying why, the plan is incomplete -> Finalizer", async () => {
    const b = done("s0", "write_file summary.md was not done: rejected by Ana (not now).", false, {
      approval_outcome: { approval_id: "apv_123456", tool_name: "write_file", decision: "rejected", reason: "not now" },
      output: { step_id: "s0", text: "write_file summary.md was not done: rejected by Ana (not now).", ok: false, final: "rejected" },
    });
    const cmd = await supervisorNode(fakeDeps())(twoSteps(1, b));
    expect(gotoOf(cmd)).toBe("finalizer");
    const p = planOf(updateOf(cmd));
    expect(p.steps.map((s) => s.status)).toEqual(["rejected", "skipped"]);
    expect(p.steps[0]).toMatchObject({ tries: 1, error: "write_file summary.md was not done: rejected by Ana (not now)." });
    expect(p.steps[1]?.error).toBe("it needs step 1, which was rejected.");
    expect(p.status).toBe("incomplete");
    expect(updateOf(cmd).lifecycle).toBe("GLOBAL_REVIEW");
  });

  it("a try that fails on the very call and error of the previous try ends the retries early: the step goes on to the new plan", async () => {
    const failedTry = (): StepBranch =>
      done("s0", "run_javascript failed: ran longer than 5000 ms", false, {
        last_tool_result: {
          tool_name: "run_javascript",
          call_id: "c",
          output: "ran longer than 5000 ms",
          status: "error",
          evicted: false,
          pointer: null,
          size_chars: 23,
          rehydration_allowed: false,
          metadata: {},
        },
        tool_history: [{ tool: "run_javascript", args_hash: "a1", output_hash: "o1" }],
      });
    // First failure: retried, and the failed call is remembered.
    const first = planOf(updateOf(await supervisorNode(fakeDeps())(twoSteps(1, failedTry()))));
    expect(first.steps[0]).toMatchObject({ status: "in_progress", tries: 2, failed_call: "run_javascript:a1:o1" });
    // The same call fails the same way again: no third try, the plan is made again.
    const again = await supervisorNode(fakeDeps())(twoSteps(2, failedTry(), { failed_call: "run_javascript:a1:o1", max_tries: 3 }));
    expect(gotoOf(again)).toBe("planner");
    expect(planOf(updateOf(again)).steps[0]).toMatchObject({ status: "failed", tries: 2 });
  });

  it("a blocked action is final and the run goes on with the steps that do not need it", async () => {
    const b = done("s0", "delete_file release-notes.md was not done: blocked by policy (File safety #4).", false, {
      output: { step_id: "s0", text: "delete_file release-notes.md was not done: blocked by policy (File safety #4).", ok: false, final: "blocked" },
    });
    const state = baseState({ plan: plan([step(0, { status: "in_progress", tries: 1 }), step(1, { task: "Read notes.md" })]), branches: { s0: b } });
    const cmd = await supervisorNode(fakeDeps())(state);
    const p = planOf(updateOf(cmd));
    expect(p.steps.map((s) => s.status)).toEqual(["blocked", "in_progress"]);
    expect(p.steps[0]?.tries).toBe(1);
    expect(targets(cmd).map((t) => [t.node, t.arg?.branch.step_id])).toEqual([["executor", "s1"]]);
  });

  it("every step blocked: the plan is incomplete, never completed", async () => {
    const b = done("s0", "x was not done: blocked by policy (r).", false, { output: { step_id: "s0", text: "x was not done: blocked by policy (r).", ok: false, final: "blocked" } });
    const cmd = await supervisorNode(fakeDeps())(baseState({ plan: plan([step(0, { status: "in_progress", tries: 1 })]), branches: { s0: b } }));
    expect(planOf(updateOf(cmd))).toMatchObject({ status: "incomplete", summary: "" });
  });

  it("a review asking for changes sends the reviewed step back once with the review as its feedback, then reviews again", async () => {
    const review = "Verdict: changes needed\n- Unused source: b.md";
    const state = baseState({
      plan: plan([step(0, { status: "completed", result: "Wrote brief.md" }), step(1, { status: "in_progress", tries: 1, depends_on: ["s0"] })]),
      branches: { s1: done("s1", review, true) },
    });
    const cmd = await supervisorNode(fakeDeps())(state);
    const p = planOf(updateOf(cmd));
    expect(p.steps.map((s) => s.status)).toEqual(["in_progress", "pending"]);
    expect(p.steps[0]).toMatchObject({ feedback: review, result: null, tries: 1 });
    expect(p.steps[1]).toMatchObject({ revisions: 1, result: null });
    expect(targets(cmd).map((t) => t.arg?.branch.step_id)).toEqual(["s0"]);

    // The second review still asks for changes: the run reports it instead of looping.
    const again = baseState({
      plan: plan([step(0, { status: "completed", result: "Wrote brief.md" }), step(1, { status: "in_progress", tries: 1, depends_on: ["s0"], revisions: 1 })]),
      branches: { s1: done("s1", review, true) },
    });
    const after = planOf(updateOf(await supervisorNode(fakeDeps())(again)));
    expect(after.steps[1]).toMatchObject({ status: "failed", error: expect.stringContaining("still asks for changes") });
    expect(after.status).toBe("incomplete");
  });

  it("a review that approves completes the step", async () => {
    const state = baseState({
      plan: plan([step(0, { status: "completed", result: "Wrote brief.md" }), step(1, { status: "in_progress", tries: 1, depends_on: ["s0"] })]),
      branches: { s1: done("s1", "Verdict: approved\nEvery point has a source.", true) },
    });
    expect(planOf(updateOf(await supervisorNode(fakeDeps())(state)))).toMatchObject({ status: "completed" });
  });

  it("an invalid approval (refused by the checks) also fails the step without a retry", async () => {
    const b = done("s0", "The approval was refused: expired", false, {
      approval_outcome: { approval_id: "apv_123456", tool_name: "write_file", decision: "invalid", reason: "expired" },
    });
    const cmd = await supervisorNode(fakeDeps())(twoSteps(1, b));
    expect(gotoOf(cmd)).toBe("finalizer");
    expect(planOf(updateOf(cmd)).steps[0]).toMatchObject({ status: "failed", tries: 1 });
  });

  it("an expired approval is retried while tries remain: the step goes back to its agent, which asks again", async () => {
    const b = done("s0", "Nobody decided on write_file before the approval expired.", false, {
      approval_outcome: { approval_id: "apv_123456", tool_name: "write_file", decision: "expired", reason: "expired" },
    });
    const cmd = await supervisorNode(fakeDeps())(twoSteps(1, b));
    expect(targets(cmd).map((x) => x.node)).toEqual(["executor"]);
    expect(planOf(updateOf(cmd)).steps[0]).toMatchObject({ status: "in_progress", tries: 2 });
  });

  it("a dismissed call (ignore) cancels the plan: open steps skipped, no retry -> Finalizer", async () => {
    const b = done("s0", "The approver dismissed write_file; the run was cancelled.", false, {
      approval_outcome: { approval_id: "apv_123456", tool_name: "write_file", decision: "ignored", reason: "dismissed" },
    });
    const state = { ...twoSteps(1, b), cancelled: { by: "user-1", reason: "The approver dismissed write_file; the run was cancelled." } };
    const cmd = await supervisorNode(fakeDeps())(state);
    expect(gotoOf(cmd)).toBe("finalizer");
    const p = planOf(updateOf(cmd));
    expect(p.status).toBe("cancelled");
    expect(p.steps.map((s) => s.status)).toEqual(["skipped", "skipped"]);
  });

  it("a branch awaiting approval is left suspended; after a new message it goes back to AwaitApproval", async () => {
    const waiting: StepBranch = { ...newBranch("s0", assistantAgent), phase: "awaiting_approval", awaiting_approval: true, approval_id: "apv_123456" };
    const still = await supervisorNode(fakeDeps())(twoSteps(1, waiting));
    expect(targets(still)).toEqual([]);
    expect(planOf(updateOf(still)).status).toBe("executing");
    const again = await supervisorNode(fakeDeps())({ ...twoSteps(1, waiting), redispatch_awaiting: true });
    expect(targets(again).map((x) => [x.node, x.arg?.branch.approval_id])).toEqual([["await_approval", "apv_123456"]]);
    expect(updateOf(again).redispatch_awaiting).toBe(false);
  });

  it("a branch that returned a tool result goes back to the Executor without a new handoff or try", async () => {
    const cmd = await supervisorNode(fakeDeps())(twoSteps(1, { ...newBranch("s0", assistantAgent), phase: "returned" }));
    expect(targets(cmd).map((x) => [x.node, x.arg?.branch.phase])).toEqual([["executor", "running"]]);
    expect(updateOf(cmd).handoffs).toBeUndefined();
    expect(planOf(updateOf(cmd)).steps[0]?.tries).toBe(1);
  });

  it("stops at the iteration limit with limit_exceeded", async () => {
    const deps = fakeDeps();
    const max = deps.flow.limits.maxIterations;
    const under = await supervisorNode(deps)(baseState({ iterations: max - 1, plan: plan([step(0)]) }));
    expect(gotoOf(under)).toBe("executor");
    const cmd = await supervisorNode(deps)(baseState({ iterations: max, plan: plan([step(0)]) }));
    expect(gotoOf(cmd)).toBe("finalizer");
    expect(updateOf(cmd)).toMatchObject({
      iterations: max + 1,
      lifecycle: "FAILED",
      error: { code: "limit_exceeded", severity: "CRITICAL", suggested_action: "HALT" },
      plan: { status: "failed" },
    });
    expect(targets(cmd).every((x) => x.node === "finalizer")).toBe(true);
  });

  it("stops at the time limit, measured with deps.now from run_started_at", async () => {
    const deps = fakeDeps();
    const { timeoutMs } = deps.flow.limits;
    const inTime = await supervisorNode(deps)(baseState({ run_started_at: deps.clock.now - timeoutMs, plan: plan([step(0)]) }));
    expect(gotoOf(inTime)).toBe("executor");
    deps.clock.now += 1;
    const late = await supervisorNode(deps)(baseState({ run_started_at: deps.clock.now - timeoutMs - 1, plan: plan([step(0)]) }));
    expect(gotoOf(late)).toBe("finalizer");
    expect(updateOf(late).error).toMatchObject({ code: "limit_exceeded", message: expect.stringContaining(`${timeoutMs} ms`) });
  });

  it("a later invocation (continue after a long stop) starts the clock again", async () => {
    const deps = fakeDeps();
    const { timeoutMs } = deps.flow.limits;
    const stale = baseState({ run_started_at: deps.clock.now - timeoutMs - 60_000, plan: plan([step(0)]) });
    expect(gotoOf(await supervisorNode(deps)(stale))).toBe("finalizer");
    expect(gotoOf(await supervisorNode({ ...deps, invokedAt: deps.clock.now - 1_000 })(stale))).toBe("executor");
  });

  it("without an executing plan it hands over to the Finalizer (failed plan -> FAILED)", async () => {
    const failed = await supervisorNode(fakeDeps())(baseState({ plan: plan([step(0)], { status: "failed", failure_reason: "x" }) }));
    expect(gotoOf(failed)).toBe("finalizer");
    expect(updateOf(failed).lifecycle).toBe("FAILED");
    const none = await supervisorNode(fakeDeps())(baseState());
    expect(gotoOf(none)).toBe("finalizer");
    expect(updateOf(none).lifecycle).toBe("GLOBAL_REVIEW");
  });
});

describe("supervisorNode with steps side by side", () => {
  it("delegates every ready step in its own branch (Send): in progress, try 1, handoff, agent identity", async () => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const cmd = await supervisorNode(deps)(baseState({ plan: plan([step(0), step(1), step(2, { depends_on: ["s0", "s1"] })]) }), config as never);
    const t = targets(cmd);
    expect(t.map((x) => [x.node, x.arg?.branch.step_id])).toEqual([
      ["executor", "s0"],
      ["executor", "s1"],
    ]);
    const u = updateOf(cmd);
    expect((u.plan as Plan).steps.map((s) => [s.status, s.tries])).toEqual([
      ["in_progress", 1],
      ["in_progress", 1],
      ["pending", 0],
    ]);
    expect(t[0]?.arg?.branch.agent).toEqual(assistantAgent);
    expect(Object.keys(u.branches as object)).toEqual(["s0", "s1"]);
    expect(u.handoffs).toMatchObject([
      { from: "supervisor", to: "assistant", reason: "plan_step", step_id: "s0" },
      { reason: "plan_step", step_id: "s1" },
    ]);
    expect(chunks.map((c) => c.type)).toEqual(["data-plan", "data-handoff", "data-step", "data-handoff", "data-step"]);
  });

  it("waits while another branch is still running, and never finishes the plan under it", async () => {
    const state = baseState({
      plan: plan([step(0, { status: "in_progress", tries: 1 }), step(1, { status: "in_progress", tries: 1 })]),
      branches: { s0: { ...newBranch("s0", assistantAgent), phase: "done", output: { step_id: "s0", text: "ok", ok: true } }, s1: newBranch("s1", assistantAgent) },
    });
    const cmd = await supervisorNode(fakeDeps())(state);
    expect(targets(cmd)).toEqual([]);
    expect((updateOf(cmd).plan as Plan).steps.map((s) => s.status)).toEqual(["completed", "in_progress"]);
  });

  it("a structured error from a branch (the loop detector) ends the run once no branch is running", async () => {
    const error = { code: "loop_detected", message: "loop", severity: "CRITICAL" as const, retryable: false, suggested_action: "HALT" as const };
    const cmd = await supervisorNode(fakeDeps())({ ...twoSteps(1, done("s0", "x", false)), error });
    expect(gotoOf(cmd)).toBe("finalizer");
    expect(updateOf(cmd).plan).toMatchObject({ status: "failed", failure_reason: "loop" });
  });
});
