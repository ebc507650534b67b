import { Command, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { newBranch } from "./branch";
import { assistantAgent, baseState, fakeDeps, plan, recorder, step, targets, textTurn, toolTurn } from "./node-fixtures";
import { finalizerNode } from "./nodes/finalizer";
import { plannerNode } from "./nodes/planner";
import { routerNode } from "./nodes/router";
import { supervisorNode } from "./nodes/supervisor";
import { GraphState, type GraphUpdate, type Plan, type StepBranch, } from "./state";

/** Unit tests of the graph-level nodes (SPEC.md 2): Router, Planner, Supervisor, Finalizer. Branch nodes: branch-nodes.test.ts. */

const gotoOf = (c: Command) => [c.goto].flat()[0];
const updateOf = (c: Command) => (c.update ?? {}) as GraphUpdate & Record<string, unknown>;

const router = routerNode(fakeDeps());

describe("Router", () => {
  const awaiting = {
    plan: plan([step(0, { status: "in_progress", tries: 1 })]),
    branches: { s0: { ...newBranch("s0", assistantAgent), phase: "awaiting_approval" as const, awaiting_approval: true, approval_id: "apv_123456" } },
  };
  it.each([
    ["APPROVE apv_123456 tok_abcdefgh", "approve"],
    ["APROBAR apv_123456 tok_abcdefgh", "approve"],
    ["RECHAZAR apv_123456", "reject"],
    ["  REJECT apv_123456  ", "reject"],
  ])("while awaiting approval, %j goes to the branch's ApprovalHandler (%s)", (text, kind) => {
    const cmd = router(baseState({ ...awaiting, messages: [{ role: "user", content: text }] }));
    const [t] = targets(cmd);
    expect(t?.node).toBe("approval_handler");
    expect(t?.arg?.branch.approval_request).toMatchObject({ kind, approval_id: "apv_123456", via: "chat", decided_by: "user-1" });
  });

  it.each(["approve apv_123456 tok_abcdefgh", "APPROVE apv_123456 tok_abcdefgh please", "APPROVE apv1 tok", "yes, go ahead", "REJECT"])(
    "while awaiting approval, a near miss %j goes to the Supervisor, not the ApprovalHandler",
    (text) => {
      const cmd = router(baseState({ ...awaiting, messages: [{ role: "user", content: text }] }));
      expect(gotoOf(cmd)).toBe("supervisor");
      expect(updateOf(cmd)).toEqual({ redispatch_awaiting: true });
    },
  );

  it("awaiting user input -> Supervisor, and clears the flag", () => {
    const cmd = router(baseState({ awaiting_user_input: true, messages: [{ role: "user", content: "the file is notes.md" }] }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(updateOf(cmd).awaiting_user_input).toBe(false);
  });

  it("conversation -> Finalizer; a task without a plan -> Planner with a fresh run state", () => {
    expect(gotoOf(router(baseState({ messages: [{ role: "user", content: "hello there" }] })))).toBe("finalizer");
    const cmd = router(baseState({ iterations: 7, messages: [{ role: "user", content: "Summarize notes.md into summary.md" }] }));
    expect(gotoOf(cmd)).toBe("planner");
    expect(updateOf(cmd)).toMatchObject({ intent: "task", plan: null, iterations: 0 });
  });

  it("directed mode: the picked agent gets the task as a one-step plan, no planning", () => {
    const cmd = router(baseState({ agent_mode: "directed", directed_agent_id: "assistant", messages: [{ role: "user", content: "Read notes.md" }] }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(updateOf(cmd).plan).toMatchObject({ status: "executing", query: "Read notes.md", steps: [{ agent_id: "assistant", task: "Read notes.md", status: "pending" }] });
    const unknown = router(baseState({ agent_mode: "directed", directed_agent_id: "nobody", messages: [{ role: "user", content: "Read notes.md" }] }));
    expect(gotoOf(unknown)).toBe("planner");
  });

  it("a task while a plan is executing -> Supervisor; after a finished plan -> Planner", () => {
    const msg = [{ role: "user" as const, content: "Summarize release-notes.md" }];
    expect(gotoOf(router(baseState({ messages: msg, plan: plan([step(0)]) })))).toBe("supervisor");
    expect(gotoOf(router(baseState({ messages: msg, plan: plan([step(0)], { status: "completed" }) })))).toBe("planner");
  });
});

describe("Planner", () => {
  it("stores the model's plan: steps pending, dependencies from indexes to ids, unknown agents to the first agent", async () => {
    const deps = fakeDeps([
      toolTurn("create_plan", {
        steps: [
          { agent_id: "assistant", task: "Read notes.md", expected_output: "text", depends_on: [] },
          { agent_id: "nobody", task: "Write summary.md", expected_output: "file", depends_on: [0, 5] },
        ],
      }),
    ]);
    const { config, chunks } = recorder();
    const out = await plannerNode(deps)(baseState({ messages: [{ role: "user", content: "Summarize notes.md into summary.md" }] }), config as never);
    const p = out.plan as NonNullable<typeof out.plan> & { steps: ReturnType<typeof step>[] };
    expect(p).toMatchObject({ status: "executing", query: "Summarize notes.md into summary.md" });
    expect(p.steps.map((s) => [s.task, s.status, s.agent_id])).toEqual([
      ["Read notes.md", "pending", "assistant"],
      ["Write summary.md", "pending", "assistant"],
    ]);
    expect(p.steps[1]?.depends_on).toEqual([p.steps[0]?.id]);
    expect(chunks.map((c) => c.type)).toEqual(["data-plan"]);
    const call = deps.model.doGenerateCalls[0];
    expect(call?.toolChoice).toEqual({ type: "tool", toolName: "create_plan" });
    expect(JSON.stringify(call?.prompt)).toContain("agent assistant | Assistant | tools: list_files, read_file, write_file, delete_file");
  });

  it("a model failure leaves a failed plan and a structured error", async () => {
    const deps = fakeDeps(() => {
      throw new Error("provider down");
    });
    const out = await plannerNode(deps)(baseState({ messages: [{ role: "user", content: "Summarize notes.md" }] }));
    expect(out.plan).toMatchObject({ status: "failed", steps: [] });
    expect(out.error).toMatchObject({ code: "plan_failed", severity: "CRITICAL", suggested_action: "HALT" });
  });

  it("re-planning plans the same task again with the failure in the prompt", async () => {
    const deps = fakeDeps([toolTurn("create_plan", { steps: [{ agent_id: "assistant", task: "Read release-notes.md", expected_output: "", depends_on: [] }] })]);
    const failed = plan([step(0, { status: "failed" })], { status: "failed", query: "Summarize notes.md" });
    const out = await plannerNode(deps)(baseState({ plan: failed, replan_reason: "Step 1 failed: no such file", messages: [{ role: "user", content: "later text" }] }));
    expect(out).toMatchObject({ plan: { status: "executing", query: "Summarize notes.md" }, replan_reason: null });
    const prompt = JSON.stringify(deps.model.doGenerateCalls[0]?.prompt);
    expect(prompt).toContain("<task>\\nSummarize notes.md\\n</task>");
    expect(prompt).toContain("<replan>\\nStep 1 failed: no such file\\n</replan>");
  });

  it("directed mode: one step for the agent, no model call", async () => {
    const deps = fakeDeps([], { ...workspaceAssistant, settings: { ...workspaceAssistant.settings, mode: "directed" } });
    const out = await plannerNode(deps)(baseState({ messages: [{ role: "user", content: "Read notes.md" }] }));
    expect((out.plan as { steps: unknown[] }).steps).toHaveLength(1);
    expect(deps.model.doGenerateCalls).toHaveLength(0);
  });
});

describe("Supervisor", () => {
  const inProgress = (tries: number, b: Partial<StepBranch>) =>
    baseState({ plan: plan([step(0, { status: "in_progress", tries }), step(1, { depends_on: ["s0"] })]), branches: { s0: { ...newBranch("s0", assistantAgent), ...b } } });

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

  it("a branch done with an answer completes its step, then the next step is delegated", async () => {
    const cmd = await supervisorNode(fakeDeps())(inProgress(1, { phase: "done", output: { step_id: "s0", text: "read it", ok: true } }));
    const steps = (updateOf(cmd).plan as Plan).steps;
    expect(steps.map((s) => s.status)).toEqual(["completed", "in_progress"]);
    expect(steps[0]?.result).toBe("read it");
    expect(targets(cmd).map((x) => [x.node, x.arg?.branch.step_id])).toEqual([["executor", "s1"]]);
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

  it("all steps done -> plan completed -> Finalizer", async () => {
    const cmd = await supervisorNode(fakeDeps())(
      baseState({ plan: plan([step(0, { status: "in_progress", tries: 1 })]), branches: { s0: { ...newBranch("s0", assistantAgent), phase: "done", output: { step_id: "s0", text: "done", ok: true } } } }),
    );
    expect(gotoOf(cmd)).toBe("finalizer");
    expect(updateOf(cmd).plan).toMatchObject({ status: "completed" });
  });

  it("a branch that returned a tool result goes back to the Executor, same step, no new handoff", async () => {
    const cmd = await supervisorNode(fakeDeps())(inProgress(1, { phase: "returned" }));
    expect(targets(cmd).map((x) => [x.node, x.arg?.branch.phase])).toEqual([["executor", "running"]]);
    expect(updateOf(cmd).handoffs).toEqual([]);
  });

  it("a failed try is retried up to max_tries; then a new plan once; then the user is asked", async () => {
    const failing = (tries: number) => inProgress(tries, { phase: "done", output: { step_id: "s0", text: "model error", ok: false } });
    const retry = await supervisorNode(fakeDeps())(failing(1));
    expect(targets(retry).map((x) => x.node)).toEqual(["executor"]);
    expect(updateOf(retry).handoffs).toMatchObject([{ reason: "error_recovery" }]);
    expect((updateOf(retry).plan as Plan).steps[0]?.tries).toBe(2);

    const replan = await supervisorNode(fakeDeps())(failing(3));
    expect(gotoOf(replan)).toBe("planner");
    expect(updateOf(replan)).toMatchObject({ replans: 1, lifecycle: "REPLAN", plan: { status: "failed", steps: [{ status: "failed" }, { status: "pending" }] } });
    expect(updateOf(replan).replan_reason).toContain("failed after 3 tries: model error");

    const ask = await supervisorNode(fakeDeps())({ ...failing(3), replans: 1 });
    expect(gotoOf(ask)).toBe("finalizer");
    expect(updateOf(ask)).toMatchObject({ awaiting_user_input: true, lifecycle: "WAIT_HUMAN" });
    expect(updateOf(ask).question).toMatch(/How should I proceed\?$/);
  });

  it("a structured error from a branch (the loop detector) ends the run once no branch is running", async () => {
    const error = { code: "loop_detected", message: "loop", severity: "CRITICAL" as const, retryable: false, suggested_action: "HALT" as const };
    const cmd = await supervisorNode(fakeDeps())({ ...inProgress(1, { phase: "done", output: { step_id: "s0", text: "x", ok: false } }), error });
    expect(gotoOf(cmd)).toBe("finalizer");
    expect(updateOf(cmd).plan).toMatchObject({ status: "failed", failure_reason: "loop" });
  });

  it("a rejected approval fails the step at once and tells the Finalizer which tool was rejected", async () => {
    const cmd = await supervisorNode(fakeDeps())(
      inProgress(1, {
        phase: "done",
        approval_outcome: { approval_id: "apv_1", tool_name: "write_file", decision: "rejected", reason: "not now" },
        output: { step_id: "s0", text: "The user rejected write_file: not now", ok: false },
      }),
    );
    expect(gotoOf(cmd)).toBe("finalizer");
    expect((updateOf(cmd).plan as Plan).failure_reason).toBe("The user rejected write_file: not now");
  });

  it("a branch waiting for approval is suspended again only when a message dropped its task", async () => {
    const waiting = { phase: "awaiting_approval" as const, awaiting_approval: true, approval_id: "apv_123456" };
    expect(targets(await supervisorNode(fakeDeps())(inProgress(1, waiting)))).toEqual([]);
    const again = await supervisorNode(fakeDeps())({ ...inProgress(1, waiting), redispatch_awaiting: true });
    expect(targets(again).map((x) => [x.node, x.arg?.branch.approval_id])).toEqual([["await_approval", "apv_123456"]]);
  });

  it("enforces the iteration and time limits with a structured error", async () => {
    const deps = fakeDeps();
    const iter = await supervisorNode(deps)(baseState({ iterations: deps.flow.limits.maxIterations, plan: plan([step(0)]) }));
    expect(gotoOf(iter)).toBe("finalizer");
    expect(updateOf(iter).error).toMatchObject({ code: "limit_exceeded" });
    const late = await supervisorNode(deps)(baseState({ run_started_at: deps.clock.now - deps.flow.limits.timeoutMs - 1, plan: plan([step(0)]) }));
    expect((updateOf(late).error as { message: string }).message).toContain(`${deps.flow.limits.timeoutMs} ms`);
  });
});

describe("Finalizer", () => {
  it("asks the Supervisor's question as an interrupt; the answer goes to the Planner for a new plan", async () => {
    const deps = fakeDeps();
    const graph = new StateGraph(GraphState)
      .addNode("finalizer", finalizerNode(deps), { ends: [END, "planner"] })
      .addNode("planner", () => ({ lifecycle: "PLAN_CHECK" as const }))
      .addEdge(START, "finalizer")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "q" } };
    await graph.invoke({ awaiting_user_input: true, question: "How should I proceed?" }, config);
    const snap = await graph.getState(config);
    expect(snap.tasks[0]?.interrupts[0]?.value).toEqual({ kind: "question", question: "How should I proceed?" });
    expect(deps.model.doGenerateCalls).toHaveLength(0);
    const out = await graph.invoke(new Command({ resume: "use release-notes.md instead" }), config);
    expect(out.messages).toEqual([
      { role: "assistant", content: "How should I proceed?" },
      { role: "user", content: "use release-notes.md instead" },
    ]);
    expect(out).toMatchObject({ awaiting_user_input: false, question: null, replans: 0, lifecycle: "PLAN_CHECK" });
    expect(out.replan_reason).toBe("How should I proceed?\nThe user answered: use release-notes.md instead");
  });

  it("answers a conversation with the conversation prompt -> END", async () => {
    const deps = fakeDeps([textTurn("Hello!")]);
    const cmd = await finalizerNode(deps)(baseState({ intent: "conversation", messages: [{ role: "user", content: "hi" }] }));
    expect(gotoOf(cmd)).toBe(END);
    expect(updateOf(cmd).final_answer).toBe("Hello!");
    expect(JSON.stringify(deps.model.doGenerateCalls[0]?.prompt)).toContain("[phylactery:conversation]");
  });

  it("summarizes the plan; a failed plan passes its reason to the model and ends FAILED", async () => {
    const deps = fakeDeps([textTurn("Not done: rejected.")]);
    const failed = plan([step(0, { status: "failed", error: "rejected" })], { status: "failed", failure_reason: "The user rejected write_file: no" });
    const cmd = await finalizerNode(deps)(baseState({ intent: "task", plan: failed }));
    expect(updateOf(cmd)).toMatchObject({ final_answer: "Not done: rejected.", lifecycle: "FAILED", messages: [{ role: "assistant", content: "Not done: rejected." }] });
    expect(JSON.stringify(deps.model.doGenerateCalls[0]?.prompt)).toContain("The user rejected write_file: no");
    const ok = await finalizerNode(fakeDeps([textTurn("Done.")]))(baseState({ intent: "task", plan: plan([step(0, { status: "completed", result: "r" })], { status: "completed" }) }));
    expect(updateOf(ok).lifecycle).toBe("COMPLETED");
  });
});
