import { Command, MemorySaver, Send, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { canonicalArgs } from "../policy/canonical";
import { assistantAgent, branchTask, fakeDeps, mirrored, proposal, recorder, targets, textTurn, toolTurn } from "./node-fixtures";
import { approvalHandlerNode } from "./nodes/approval-handler";
import { awaitApprovalNode } from "./nodes/await-approval";
import { executorNode } from "./nodes/executor";
import { interpreterNode } from "./nodes/interpreter";
import { riskGateNode } from "./nodes/risk-gate";
import { toolsNode } from "./nodes/tools";
import { type BranchTask, GraphState, type GraphUpdate, type StepBranch, type ToolResultState } from "./state";

/** Unit tests of the nodes a step's branch moves through (SPEC.md 2): Executor, RiskGate, AwaitApproval, ApprovalHandler, Tools, Interpreter. */

const gotoOf = (c: Command) => [c.goto].flat()[0];
const updateOf = (c: Command) => (c.update ?? {}) as GraphUpdate & Record<string, unknown>;

describe("Executor", () => {
  it("a tool call becomes the branch's proposed_tool with RFC 8785 canonical args and their SHA-256 -> RiskGate", async () => {
    const deps = fakeDeps([toolTurn("write_file", { path: "a.md", content: "x" })]);
    const cmd = await executorNode(deps)(branchTask());
    const [t] = targets(cmd);
    expect(t?.node).toBe("risk_gate");
    const p = t?.arg?.branch.proposed_tool as ReturnType<typeof proposal>;
    expect(p.canonical_args).toBe('{"content":"x","path":"a.md"}');
    expect(p.args_hash).toBe(canonicalArgs({ path: "a.md", content: "x" }).hash);
    expect(p.tool_call_id).toMatch(/^call_1-[0-9a-f]{8}$/);
    expect(t?.arg?.branch.executor_messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(mirrored(cmd)?.proposed_tool).toEqual(p);
  });

  it("offers the model only the agent's tools, and a text answer completes the branch -> Supervisor", async () => {
    const deps = fakeDeps([textTurn("Read 10 characters.")]);
    const cmd = await executorNode(deps)(branchTask());
    expect(deps.model.doGenerateCalls[0]?.tools?.map((t) => t.name).sort()).toEqual(["delete_file", "list_files", "read_file", "rehydrate", "write_file"]);
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(mirrored(cmd)).toMatchObject({ phase: "done", output: { step_id: "s0", text: "Read 10 characters.", ok: true } });
    expect(updateOf(cmd).step_usage).toEqual({ s0: { input_tokens: 10, output_tokens: 5 } });
  });

  it("a model error is reported to the Supervisor as a failed try", async () => {
    const deps = fakeDeps(() => {
      throw new Error("rate limited");
    });
    const cmd = await executorNode(deps)(branchTask());
    expect(mirrored(cmd)?.output).toMatchObject({ ok: false, text: expect.stringContaining("rate limited") });
  });
});

describe("RiskGate", () => {
  const at = (p: ReturnType<typeof proposal>) => branchTask({ proposed_tool: p });

  it("arguments changed after hashing: integrity error, no approval, no tool", async () => {
    const deps = fakeDeps();
    const p = { ...proposal("write_file", { path: "a.md", content: "x" }), args: { path: "a.md", content: "evil" } };
    const cmd = await riskGateNode(deps)(at(p));
    const [t] = targets(cmd);
    expect(t?.node).toBe("interpreter");
    expect(t?.arg?.branch.last_tool_result).toMatchObject({ status: "error", metadata: { code: "integrity_error" } });
    expect(deps.created).toHaveLength(0);
  });

  it("ALLOW -> Tools; BLOCKED -> Interpreter with a blocked result", async () => {
    const deps = fakeDeps();
    expect(targets(await riskGateNode(deps)(at(proposal("read_file", { path: "notes.md" }))))[0]?.node).toBe("tools");
    const blocked = targets(await riskGateNode(deps)(at(proposal("delete_file", { path: "notes.md" }))))[0];
    expect(blocked?.node).toBe("interpreter");
    expect(blocked?.arg?.branch.last_tool_result?.output).toMatch(/^BLOCKED by policy/);
    expect(deps.audits.map((a) => a.action)).toEqual(["tool_proposed", "tool_blocked"]);
  });

  it("AUTH_REQUIRED: a challenge on the canonical args -> AwaitApproval, with an approval card", async () => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const p = proposal("write_file", { path: "summary.md", content: "hi" });
    const cmd = await riskGateNode(deps)(at(p), config as never);
    const [t] = targets(cmd);
    expect(t?.node).toBe("await_approval");
    expect(deps.created).toEqual([{ threadId: "thread-1", userId: "user-1", toolName: "write_file", toolCallId: p.tool_call_id, canonicalArgs: p.canonical_args, argsHash: p.args_hash }]);
    expect(t?.arg?.branch).toMatchObject({ phase: "awaiting_approval", awaiting_approval: true, approval_id: "apv_1xxxxxx" });
    expect(mirrored(cmd)?.phase).toBe("awaiting_approval");
    expect(chunks.at(-1)).toMatchObject({ type: "data-approval", data: { toolName: "write_file", argsHash: p.args_hash, status: "pending" } });
  });

  it("a tool not wired to the branch's agent is refused", async () => {
    const deps = fakeDeps();
    const cmd = await riskGateNode(deps)(branchTask({ agent: { ...assistantAgent, id: "someone-else" }, proposed_tool: proposal("read_file", { path: "x" }) }));
    expect(targets(cmd)[0]?.arg?.branch.last_tool_result).toMatchObject({ metadata: { code: "tool_not_allowed" } });
  });
});

describe("AwaitApproval", () => {
  it("interrupts with a HumanInterrupt for the exact call, and a resume becomes the branch's approval request", async () => {
    const seen: BranchTask[] = [];
    const graph = new StateGraph(GraphState)
      .addNode("start_branch", () => new Command({ goto: new Send("await_approval", task) }), { ends: ["await_approval"] })
      .addNode("await_approval", awaitApprovalNode() as never, { ends: ["approval_handler"] })
      .addNode("approval_handler", ((t: BranchTask) => {
        seen.push(t);
        return {};
      }) as never)
      .addEdge(START, "start_branch")
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t" } };
    const p = proposal("write_file", { path: "summary.md", content: "hi" });
    const task = branchTask({ proposed_tool: p, approval_id: "apv_123456", awaiting_approval: true, phase: "awaiting_approval" });
    await graph.invoke({}, config);
    const snap = await graph.getState(config);
    expect(snap.tasks[0]?.interrupts[0]?.value).toEqual([
      {
        action_request: { action: "write_file", args: { path: "summary.md", content: "hi" } },
        config: { allow_accept: true, allow_respond: true, allow_edit: false, allow_ignore: false },
        description: expect.stringContaining(p.args_hash),
        approval_id: "apv_123456",
        args_hash: p.args_hash,
        step_id: "s0",
      },
    ]);
    await graph.invoke(new Command({ resume: { response: { type: "accept", args: null }, approval_id: "apv_123456", token: "tok_abcdefgh", decided_by: "user-1" } }), config);
    expect(seen[0]?.branch.approval_request).toEqual({ kind: "approve", approval_id: "apv_123456", token: "tok_abcdefgh", via: "card", decided_by: "user-1", reason: null });
  });
});

describe("ApprovalHandler", () => {
  const p = proposal("write_file", { path: "summary.md", content: "hi" });
  const waiting = (req: Record<string, unknown>, extra: Partial<StepBranch> = {}) =>
    branchTask({
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
    expect(mirrored(cmd)).toMatchObject({ phase: "done", awaiting_approval: false, proposed_tool: null, approval_id: null, approval_outcome: { decision: "rejected", tool_name: "write_file", reason: "no" } });
    expect(deps.rejected).toHaveLength(1);
    expect(deps.consumed).toHaveLength(0);
  });

  it("approve: consumes the challenge with the hash recomputed from the branch -> Tools", async () => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting({}));
    expect(targets(cmd)[0]?.node).toBe("tools");
    expect(deps.consumed).toEqual([{ approvalId: "apv_123456", token: "tok_abcdefgh", threadId: "thread-1", userId: "user-1", argsHash: p.args_hash }]);
  });

  it("arguments tampered in the branch: nothing is consumed and the tool does not run", async () => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting({}, { proposed_tool: { ...p, args: { path: "summary.md", content: "evil" } } }));
    expect(deps.consumed).toHaveLength(0);
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(mirrored(cmd)?.approval_outcome).toMatchObject({ decision: "invalid" });
  });

  it("a failed check from the card -> Supervisor (invalid); from the chat -> the call keeps waiting", async () => {
    const deps = fakeDeps();
    deps.consumeResult = { ok: false, reason: "bad_token", message: "The approval token is not valid." };
    expect(gotoOf(await approvalHandlerNode(deps)(waiting({})))).toBe("supervisor");
    const chat = await approvalHandlerNode(deps)(waiting({ via: "chat" }));
    expect(targets(chat)[0]?.node).toBe("await_approval");
    expect(updateOf(chat).messages).toMatchObject([{ role: "assistant", content: expect.stringContaining("not valid") }]);
  });

  it("an approval for another challenge id is not consumed", async () => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting({ approval_id: "apv_other1", via: "chat" }));
    expect(deps.consumed).toHaveLength(0);
    expect(targets(cmd)[0]?.node).toBe("await_approval");
  });
});

describe("Tools and Interpreter", () => {
  it("Tools runs exactly the proposed call in the thread's workspace and records it", async () => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const p = proposal("read_file", { path: "notes.md" });
    const cmd = await toolsNode(deps)(branchTask({ proposed_tool: p }), config as never);
    expect(deps.ran).toEqual([{ name: "read_file", args: { path: "notes.md" }, threadId: "thread-1" }]);
    const [t] = targets(cmd);
    expect(t?.node).toBe("interpreter");
    expect(t?.arg?.branch.last_tool_result).toMatchObject({ tool_name: "read_file", call_id: p.tool_call_id, status: "success", output: "ran read_file" });
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
      const cmd = await toolsNode(deps)(branchTask({ proposed_tool: proposal("read_file", { path: "big.txt" }) }));
      const r = targets(cmd)[0]?.arg?.branch.last_tool_result as ToolResultState;
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
    let history: StepBranch["tool_history"] = [];
    for (const round of [1, 2, 3]) {
      const cmd = await interpreterNode()(branchTask({ proposed_tool: p, last_tool_result: result, tool_history: history }));
      history = mirrored(cmd)?.tool_history ?? [];
      if (round < 3) expect(updateOf(cmd).error).toBeUndefined();
      else {
        expect(updateOf(cmd).error).toMatchObject({ code: "loop_detected", metadata: { repeats: 3 } });
        expect(mirrored(cmd)).toMatchObject({ phase: "done", output: { ok: false } });
      }
    }
    const other = await interpreterNode()(branchTask({ proposed_tool: p, last_tool_result: { ...result, output: "changed" }, tool_history: history.slice(0, 2) }));
    expect(updateOf(other).error).toBeUndefined();
  });

  it("Interpreter hands the result back as a tool-result message, clears proposed_tool -> Supervisor", async () => {
    const result = { tool_name: "delete_file", call_id: "c1", output: "BLOCKED by policy", status: "error" as const, evicted: false, pointer: null, size_chars: 17, rehydration_allowed: false, metadata: {} };
    const cmd = await interpreterNode()(branchTask({ proposed_tool: proposal("delete_file", { path: "x" }), last_tool_result: result }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(mirrored(cmd)).toMatchObject({ phase: "returned", proposed_tool: null });
    expect(mirrored(cmd)?.executor_messages).toEqual([
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "delete_file", output: { type: "text", value: "ERROR: BLOCKED by policy" } }] },
    ]);
  });
});

