import { Command, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { canonicalArgs } from "../policy/canonical";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { baseState, fakeDeps, plan, proposal, recorder, step, textTurn, toolTurn } from "./node-fixtures";
import { approvalHandlerNode } from "./nodes/approval-handler";
import { awaitApprovalNode } from "./nodes/await-approval";
import { executorNode } from "./nodes/executor";
import { finalizerNode } from "./nodes/finalizer";
import { interpreterNode } from "./nodes/interpreter";
import { plannerNode } from "./nodes/planner";
import { riskGateNode } from "./nodes/risk-gate";
import { routerNode } from "./nodes/router";
import { supervisorNode } from "./nodes/supervisor";
import { toolsNode } from "./nodes/tools";
import { GraphState, type GraphUpdate, type ToolResultState } from "./state";

/** Unit tests of every graph node (SPEC.md 2), with fake services and a scripted model. */

const gotoOf = (c: Command) => [c.goto].flat()[0];
const updateOf = (c: Command) => (c.update ?? {}) as GraphUpdate & Record<string, unknown>;
const assistantAgent = { id: "assistant", name: "Assistant", icon: "📁", color: "#2f7d5b" };

const router = routerNode(fakeDeps());

describe("Router", () => {
  const awaiting = { awaiting_approval: true, approval_id: "apv_123456" };
  it.each([
    ["APPROVE apv_123456 tok_abcdefgh", "approval_handler", "approve"],
    ["APROBAR apv_123456 tok_abcdefgh", "approval_handler", "approve"],
    ["RECHAZAR apv_123456", "approval_handler", "reject"],
    ["  REJECT apv_123456  ", "approval_handler", "reject"],
  ])("while awaiting approval, %j -> %s (%s)", (text, target, kind) => {
    const cmd = router(baseState({ ...awaiting, messages: [{ role: "user", content: text }] }));
    expect(gotoOf(cmd)).toBe(target);
    expect(updateOf(cmd).approval_request).toMatchObject({ kind, approval_id: "apv_123456", via: "chat", decided_by: "user-1" });
  });

  it.each(["approve apv_123456 tok_abcdefgh", "APPROVE apv_123456 tok_abcdefgh please", "APPROVE apv1 tok", "yes, go ahead", "REJECT"])(
    "while awaiting approval, a near miss %j goes to the Supervisor, not the ApprovalHandler",
    (text) => {
      const cmd = router(baseState({ ...awaiting, messages: [{ role: "user", content: text }] }));
      expect(gotoOf(cmd)).toBe("supervisor");
      expect(updateOf(cmd).approval_request).toBeUndefined();
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
  it("delegates the first ready step: in progress, try 1, handoff and agent identity, -> Executor", async () => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const cmd = await supervisorNode(deps)(baseState({ plan: plan([step(0), step(1, { depends_on: ["s0"] })]) }), config as never);
    expect(gotoOf(cmd)).toBe("executor");
    const u = updateOf(cmd);
    expect((u.plan as { steps: { status: string; tries: number }[] }).steps.map((s) => [s.status, s.tries])).toEqual([
      ["in_progress", 1],
      ["pending", 0],
    ]);
    expect(u.current_agent).toEqual(assistantAgent);
    expect(u.handoffs).toMatchObject([{ from: "supervisor", to: "assistant", reason: "plan_step", step_id: "s0" }]);
    expect(chunks.map((c) => c.type)).toEqual(["data-plan", "data-handoff", "data-step"]);
  });

  it("the Executor's answer completes the step, then the next step is delegated", async () => {
    const cmd = await supervisorNode(fakeDeps())(
      baseState({ plan: plan([step(0, { status: "in_progress", tries: 1 }), step(1, { depends_on: ["s0"] })]), step_output: { step_id: "s0", text: "read it", ok: true } }),
    );
    const steps = (updateOf(cmd).plan as { steps: { status: string; result: string | null }[] }).steps;
    expect(steps.map((s) => s.status)).toEqual(["completed", "in_progress"]);
    expect(steps[0]?.result).toBe("read it");
  });

  it("all steps done -> plan completed -> Finalizer", async () => {
    const cmd = await supervisorNode(fakeDeps())(baseState({ plan: plan([step(0, { status: "in_progress", tries: 1 })]), step_output: { step_id: "s0", text: "done", ok: true } }));
    expect(gotoOf(cmd)).toBe("finalizer");
    expect(updateOf(cmd).plan).toMatchObject({ status: "completed" });
  });

  it("a failed try is retried up to max_tries; then a new plan once; then the user is asked", async () => {
    const failing = (tries: number) => ({ plan: plan([step(0, { status: "in_progress", tries })]), step_output: { step_id: "s0", text: "model error", ok: false } });
    const retry = await supervisorNode(fakeDeps())(baseState(failing(1)));
    expect(gotoOf(retry)).toBe("executor");
    expect(updateOf(retry).handoffs).toMatchObject([{ reason: "error_recovery" }]);
    expect((updateOf(retry).plan as { steps: { tries: number }[] }).steps[0]?.tries).toBe(2);

    const replan = await supervisorNode(fakeDeps())(baseState(failing(3)));
    expect(gotoOf(replan)).toBe("planner");
    expect(updateOf(replan)).toMatchObject({ replans: 1, lifecycle: "REPLAN", plan: { status: "failed", steps: [{ status: "failed" }] } });
    expect(updateOf(replan).replan_reason).toContain("failed after 3 tries: model error");

    const ask = await supervisorNode(fakeDeps())(baseState({ ...failing(3), replans: 1 }));
    expect(gotoOf(ask)).toBe("finalizer");
    expect(updateOf(ask)).toMatchObject({ awaiting_user_input: true, lifecycle: "WAIT_HUMAN" });
    expect(updateOf(ask).question).toMatch(/How should I proceed\?$/);
  });

  it("the user's answer to the question makes a new plan with the answer", async () => {
    const cmd = await supervisorNode(fakeDeps())(
      baseState({ question: "Step 1 failed. How should I proceed?", plan: plan([step(0, { status: "failed" })], { status: "failed" }), messages: [{ role: "user", content: "use release-notes.md instead" }] }),
    );
    expect(gotoOf(cmd)).toBe("planner");
    expect(updateOf(cmd)).toMatchObject({ question: null, replans: 0, lifecycle: "REPLAN" });
    expect(updateOf(cmd).replan_reason).toContain("The user answered: use release-notes.md instead");
  });

  it("a structured error from another node (the loop detector) ends the run", async () => {
    const cmd = await supervisorNode(fakeDeps())(
      baseState({ plan: plan([step(0, { status: "in_progress", tries: 1 })]), error: { code: "loop_detected", message: "loop", severity: "CRITICAL", retryable: false, suggested_action: "HALT" } }),
    );
    expect(gotoOf(cmd)).toBe("finalizer");
    expect(updateOf(cmd).plan).toMatchObject({ status: "failed", failure_reason: "loop" });
  });

  it("a rejected approval fails the step and tells the Finalizer which tool was rejected", async () => {
    const cmd = await supervisorNode(fakeDeps())(
      baseState({
        plan: plan([step(0, { status: "in_progress", tries: 1 })]),
        approval_outcome: { approval_id: "apv_1", tool_name: "write_file", decision: "rejected", reason: "not now" },
      }),
    );
    expect(gotoOf(cmd)).toBe("finalizer");
    expect((updateOf(cmd).plan as { failure_reason: string }).failure_reason).toBe("The user rejected write_file: not now");
  });

  it("while awaiting approval -> AwaitApproval again; a step with a tool result to read -> Executor", async () => {
    expect(gotoOf(await supervisorNode(fakeDeps())(baseState({ awaiting_approval: true, plan: plan([step(0, { status: "in_progress" })]) })))).toBe("await_approval");
    expect(gotoOf(await supervisorNode(fakeDeps())(baseState({ plan: plan([step(0, { status: "in_progress", tries: 1 })]) })))).toBe("executor");
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

describe("Executor", () => {
  const inProgress = () => baseState({ current_agent: assistantAgent, plan: plan([step(0, { status: "in_progress", tries: 1, task: "Read notes.md" })]) });

  it("a tool call becomes proposed_tool with RFC 8785 canonical args and their SHA-256 -> RiskGate", async () => {
    const deps = fakeDeps([toolTurn("write_file", { path: "a.md", content: "x" })]);
    const cmd = await executorNode(deps)(inProgress());
    expect(gotoOf(cmd)).toBe("risk_gate");
    const p = updateOf(cmd).proposed_tool as ReturnType<typeof proposal>;
    expect(p.canonical_args).toBe('{"content":"x","path":"a.md"}');
    expect(p.args_hash).toBe(canonicalArgs({ path: "a.md", content: "x" }).hash);
    expect(p.tool_call_id).toMatch(/^call_1-[0-9a-f]{8}$/);
    const msgs = updateOf(cmd).executor_messages as { role: string }[];
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant"]);
  });

  it("offers the model only the agent's tools, and a text answer completes the step -> Supervisor", async () => {
    const deps = fakeDeps([textTurn("Read 10 characters.")]);
    const cmd = await executorNode(deps)(inProgress());
    expect(Object.keys(deps.model.doGenerateCalls[0]?.tools?.map((t) => t.name) ?? [])).toHaveLength(4);
    expect(deps.model.doGenerateCalls[0]?.tools?.map((t) => t.name).sort()).toEqual(["delete_file", "list_files", "read_file", "write_file"]);
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(updateOf(cmd).step_output).toEqual({ step_id: "s0", text: "Read 10 characters.", ok: true });
  });

  it("a model error is reported to the Supervisor as a failed try", async () => {
    const deps = fakeDeps(() => {
      throw new Error("rate limited");
    });
    const cmd = await executorNode(deps)(inProgress());
    expect(updateOf(cmd).step_output).toMatchObject({ ok: false, text: expect.stringContaining("rate limited") });
  });
});

describe("RiskGate", () => {
  const at = (p: ReturnType<typeof proposal>) => baseState({ current_agent: assistantAgent, proposed_tool: p });

  it("arguments changed after hashing: integrity error, no approval, no tool", async () => {
    const deps = fakeDeps();
    const p = { ...proposal("write_file", { path: "a.md", content: "x" }), args: { path: "a.md", content: "evil" } };
    const cmd = await riskGateNode(deps)(at(p));
    expect(gotoOf(cmd)).toBe("interpreter");
    expect(updateOf(cmd).last_tool_result).toMatchObject({ status: "error", metadata: { code: "integrity_error" } });
    expect(deps.created).toHaveLength(0);
  });

  it("ALLOW -> Tools; BLOCKED -> Interpreter with a blocked result", async () => {
    const deps = fakeDeps();
    expect(gotoOf(await riskGateNode(deps)(at(proposal("read_file", { path: "notes.md" }))))).toBe("tools");
    const blocked = await riskGateNode(deps)(at(proposal("delete_file", { path: "notes.md" })));
    expect(gotoOf(blocked)).toBe("interpreter");
    expect((updateOf(blocked).last_tool_result as { output: string }).output).toMatch(/^BLOCKED by policy/);
    expect(deps.audits.map((a) => a.action)).toEqual(["tool_proposed", "tool_blocked"]);
  });

  it("AUTH_REQUIRED: a challenge on the canonical args -> AwaitApproval, with an approval card", async () => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const p = proposal("write_file", { path: "summary.md", content: "hi" });
    const cmd = await riskGateNode(deps)(at(p), config as never);
    expect(gotoOf(cmd)).toBe("await_approval");
    expect(deps.created).toEqual([{ threadId: "thread-1", userId: "user-1", toolName: "write_file", toolCallId: p.tool_call_id, canonicalArgs: p.canonical_args, argsHash: p.args_hash }]);
    expect(updateOf(cmd)).toMatchObject({ awaiting_approval: true, approval_id: "apv_1xxxxxx", lifecycle: "WAIT_HUMAN" });
    expect(chunks.at(-1)).toMatchObject({ type: "data-approval", data: { toolName: "write_file", argsHash: p.args_hash, status: "pending" } });
  });

  it("a tool not wired to the current agent is refused", async () => {
    const deps = fakeDeps();
    const cmd = await riskGateNode(deps)(baseState({ current_agent: { ...assistantAgent, id: "someone-else" }, proposed_tool: proposal("read_file", { path: "x" }) }));
    expect(gotoOf(cmd)).toBe("interpreter");
    expect(updateOf(cmd).last_tool_result).toMatchObject({ metadata: { code: "tool_not_allowed" } });
  });
});

describe("AwaitApproval", () => {
  it("interrupts with a HumanInterrupt for the exact call, and a resume becomes the approval request", async () => {
    const graph = new StateGraph(GraphState).addNode("await_approval", awaitApprovalNode()).addEdge(START, "await_approval").compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    const p = proposal("write_file", { path: "summary.md", content: "hi" });
    await graph.invoke({ proposed_tool: p, approval_id: "apv_123456", awaiting_approval: true }, config);
    const snap = await graph.getState(config);
    expect(snap.tasks[0]?.interrupts[0]?.value).toEqual([
      {
        action_request: { action: "write_file", args: { path: "summary.md", content: "hi" } },
        config: { allow_accept: true, allow_respond: true, allow_edit: false, allow_ignore: false },
        description: expect.stringContaining(p.args_hash),
        approval_id: "apv_123456",
        args_hash: p.args_hash,
      },
    ]);
    const out = await graph.invoke(new Command({ resume: { response: { type: "accept", args: null }, approval_id: "apv_123456", token: "tok_abcdefgh", decided_by: "user-1" } }), config);
    expect(out.approval_request).toEqual({ kind: "approve", approval_id: "apv_123456", token: "tok_abcdefgh", via: "card", decided_by: "user-1", reason: null });
  });
});

describe("ApprovalHandler", () => {
  const p = proposal("write_file", { path: "summary.md", content: "hi" });
  const waiting = (req: Record<string, unknown>, extra = {}) =>
    baseState({
      proposed_tool: p,
      awaiting_approval: true,
      approval_id: "apv_123456",
      approval_request: { kind: "approve", approval_id: "apv_123456", token: "tok_abcdefgh", via: "card", decided_by: "user-1", reason: null, ...req },
      ...extra,
    });

  it("reject: marks it rejected, clears awaiting_approval, proposed_tool and approval_id, tells the Supervisor", async () => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting({ kind: "reject", token: null, reason: "no" }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(updateOf(cmd)).toMatchObject({ awaiting_approval: false, proposed_tool: null, approval_id: null, approval_outcome: { decision: "rejected", tool_name: "write_file", reason: "no" } });
    expect(deps.rejected).toHaveLength(1);
    expect(deps.consumed).toHaveLength(0);
  });

  it("approve: consumes the challenge with the hash recomputed from the state -> Tools", async () => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting({}));
    expect(gotoOf(cmd)).toBe("tools");
    expect(deps.consumed).toEqual([{ approvalId: "apv_123456", token: "tok_abcdefgh", threadId: "thread-1", userId: "user-1", argsHash: p.args_hash }]);
  });

  it("arguments tampered in the state: nothing is consumed and the tool does not run", async () => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting({}, { proposed_tool: { ...p, args: { path: "summary.md", content: "evil" } } }));
    expect(deps.consumed).toHaveLength(0);
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(updateOf(cmd).approval_outcome).toMatchObject({ decision: "invalid" });
  });

  it("a failed check from the card -> Supervisor (invalid); from the chat -> the call keeps waiting", async () => {
    const deps = fakeDeps();
    deps.consumeResult = { ok: false, reason: "bad_token", message: "The approval token is not valid." };
    const card = await approvalHandlerNode(deps)(waiting({}));
    expect(gotoOf(card)).toBe("supervisor");
    const chat = await approvalHandlerNode(deps)(waiting({ via: "chat" }));
    expect(gotoOf(chat)).toBe("await_approval");
    expect(updateOf(chat).messages).toMatchObject([{ role: "assistant", content: expect.stringContaining("not valid") }]);
  });

  it("an approval for another challenge id is not consumed", async () => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting({ approval_id: "apv_other1", via: "chat" }));
    expect(deps.consumed).toHaveLength(0);
    expect(gotoOf(cmd)).toBe("await_approval");
  });
});

describe("Tools and Interpreter", () => {
  it("Tools runs exactly the proposed call in the thread's workspace and records it", async () => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const p = proposal("read_file", { path: "notes.md" });
    const out = await toolsNode(deps)(baseState({ proposed_tool: p }), config as never);
    expect(deps.ran).toEqual([{ name: "read_file", args: { path: "notes.md" }, threadId: "thread-1" }]);
    expect(out.last_tool_result).toMatchObject({ tool_name: "read_file", call_id: p.tool_call_id, status: "success", output: "ran read_file" });
    expect(deps.audits.map((a) => a.action)).toEqual(["tool_executed"]);
    expect(chunks.map((c) => (c.type === "data-tool" ? c.data.status : c.type))).toEqual(["running", "done"]);
  });

  it("Tools evicts outputs over 10,000 chars by original size; under 50,000 they may be rehydrated", async () => {
    for (const [size, allowed] of [
      [10_000, null],
      [10_001, true],
      [49_999, true],
      [50_000, false],
    ] as const) {
      const deps = fakeDeps();
      deps.toolOutput = "x".repeat(size);
      const out = await toolsNode(deps)(baseState({ proposed_tool: proposal("read_file", { path: "big.txt" }) }));
      const r = out.last_tool_result as ToolResultState;
      if (allowed === null) {
        expect(r).toMatchObject({ evicted: false, pointer: null, output: deps.toolOutput });
        continue;
      }
      expect(r).toMatchObject({ evicted: true, status: "evicted", size_chars: size, rehydration_allowed: allowed });
      expect(r.output).toBe(`[EVICTED size=${size}] See ${r.pointer}`);
      expect(deps.stored.get(r.pointer ?? "")?.content).toHaveLength(size);
    }
  });

  it("the loop detector stops the third identical call (same tool, input and output)", async () => {
    const p = proposal("read_file", { path: "notes.md" });
    const result = { tool_name: "read_file", call_id: "c1", output: "same", status: "success" as const, evicted: false, pointer: null, size_chars: 4, rehydration_allowed: false, metadata: {} };
    let state = baseState({ proposed_tool: p, last_tool_result: result });
    for (const round of [1, 2, 3]) {
      const out = await interpreterNode()(state);
      state = { ...state, tool_history: out.tool_history as typeof state.tool_history, proposed_tool: p };
      if (round < 3) expect(out.error).toBeUndefined();
      else expect(out.error).toMatchObject({ code: "loop_detected", metadata: { repeats: 3 } });
    }
    const other = await interpreterNode()({ ...state, tool_history: state.tool_history.slice(0, 2), last_tool_result: { ...result, output: "changed" } });
    expect(other.error).toBeUndefined();
  });

  it("Interpreter hands the result back as a tool-result message and clears proposed_tool", async () => {
    const result = { tool_name: "delete_file", call_id: "c1", output: "BLOCKED by policy", status: "error" as const, evicted: false, pointer: null, size_chars: 17, rehydration_allowed: false, metadata: {} };
    const out = await interpreterNode()(baseState({ proposed_tool: proposal("delete_file", { path: "x" }), last_tool_result: result }));
    expect(out.proposed_tool).toBeNull();
    expect(out.executor_messages).toEqual([
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "delete_file", output: { type: "text", value: "ERROR: BLOCKED by policy" } }] },
    ]);
  });
});

describe("Finalizer", () => {
  it("asks the user the Supervisor's question without calling the model", async () => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const out = await finalizerNode(deps)(baseState({ awaiting_user_input: true, question: "How should I proceed?" }), config as never);
    expect(out.messages).toEqual([{ role: "assistant", content: "How should I proceed?" }]);
    expect(chunks).toMatchObject([{ type: "text", text: "How should I proceed?" }]);
    expect(deps.model.doGenerateCalls).toHaveLength(0);
  });

  it("answers a conversation with the conversation prompt", async () => {
    const deps = fakeDeps([textTurn("Hello!")]);
    const out = await finalizerNode(deps)(baseState({ intent: "conversation", messages: [{ role: "user", content: "hi" }] }));
    expect(out.final_answer).toBe("Hello!");
    expect(JSON.stringify(deps.model.doGenerateCalls[0]?.prompt)).toContain("[phylactery:conversation]");
  });

  it("summarizes the plan; a failed plan passes its reason to the model and ends FAILED", async () => {
    const deps = fakeDeps([textTurn("Not done: rejected.")]);
    const failed = plan([step(0, { status: "failed", error: "rejected" })], { status: "failed", failure_reason: "The user rejected write_file: no" });
    const out = await finalizerNode(deps)(baseState({ intent: "task", plan: failed }));
    expect(out).toMatchObject({ final_answer: "Not done: rejected.", lifecycle: "FAILED", messages: [{ role: "assistant", content: "Not done: rejected." }] });
    expect(JSON.stringify(deps.model.doGenerateCalls[0]?.prompt)).toContain("The user rejected write_file: no");
    const ok = await finalizerNode(fakeDeps([textTurn("Done.")]))(baseState({ intent: "task", plan: plan([step(0, { status: "completed", result: "r" })], { status: "completed" }) }));
    expect(ok.lifecycle).toBe("COMPLETED");
  });
});
