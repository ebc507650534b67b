import { Command, MemorySaver, Send, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { type BranchTask, GraphState, type StepBranch } from "../state";
import { branchTask, proposal } from "./fake-deps";
import { awaitApprovalNode } from "./await-approval";

/**
 * AwaitApproval (docs/architecture.md#nodes): `interrupt()` only works inside a running graph,
 * so the node runs in a tiny StateGraph with a MemorySaver: a start node sends it the branch
 * task (as the RiskGate does) and a stand-in ApprovalHandler records what it receives.
 */

const p = proposal("write_file", { path: "summary.md", content: "hi" });

function harness(task: BranchTask) {
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
  return { graph, seen, config: { configurable: { thread_id: `t-${Math.random()}` } } };
}

const waitingTask = () => branchTask({ proposed_tool: p, approval_id: "apv_123456", awaiting_approval: true, phase: "awaiting_approval" });

describe("awaitApprovalNode", () => {
  it("suspends with one HumanInterrupt for the exact call; nothing runs before the decision", async () => {
    const { graph, seen, config } = harness(waitingTask());
    await graph.invoke({}, config);
    const snap = await graph.getState(config);
    expect(snap.next).toEqual(["await_approval"]);
    expect(snap.tasks[0]?.interrupts[0]?.value).toEqual([
      {
        action_request: { action: "write_file", args: { path: "summary.md", content: "hi" } },
        config: { allow_accept: true, allow_respond: true, allow_edit: true, allow_ignore: true },
        description: `Approve write_file with exactly these arguments? sha256 ${p.args_hash}`,
        approval_id: "apv_123456",
        args_hash: p.args_hash,
        step_id: "s0",
      },
    ]);
    expect(seen).toHaveLength(0);
  });

  it("an accept resume becomes a card approve request for the ApprovalHandler, mirrored in the state", async () => {
    const { graph, seen, config } = harness(waitingTask());
    await graph.invoke({}, config);
    const out = await graph.invoke(
      new Command({ resume: { response: { type: "accept", args: null }, decision: "approve", approval_id: "apv_123456", token: "tok_abcdefgh", decided_by: "user-9" } }),
      config,
    );
    const request = { kind: "approve", approval_id: "apv_123456", token: "tok_abcdefgh", via: "card", decided_by: "user-9", reason: null, edited_args: null };
    expect(seen).toHaveLength(1);
    expect(seen[0]?.branch).toMatchObject({ phase: "running", approval_request: request, proposed_tool: p, approval_id: "apv_123456" });
    expect(seen[0]).toMatchObject({ thread_id: "thread-1", user_id: "user-1" });
    expect((out.branches as Record<string, StepBranch>).s0?.approval_request).toEqual(request);
  });

  it.each([
    ["reject", { type: "response", args: "wrong file" }, { kind: "reject", reason: "wrong file", edited_args: null, via: "card" }],
    ["respond", { type: "response", args: "use notes.md" }, { kind: "respond", reason: "use notes.md", edited_args: null, via: "card" }],
    ["ignore", { type: "ignore", args: null }, { kind: "ignore", reason: null, edited_args: null, via: "card" }],
    ["edit", { type: "edit", args: { action: "write_file", args: { path: "x.md", content: "hi" } } }, { kind: "edit", reason: null, edited_args: { path: "x.md", content: "hi" }, via: "card" }],
    ["expired", { type: "response", args: "expired" }, { kind: "expired", reason: "expired", edited_args: null, via: "system" }],
  ] as const)("a %s resume (HumanResponse) becomes the matching request for the ApprovalHandler", async (decision, response, expected) => {
    const { graph, seen, config } = harness(waitingTask());
    await graph.invoke({}, config);
    await graph.invoke(new Command({ resume: { response, decision, approval_id: "apv_123456", token: null, decided_by: "user-1" } }), config);
    expect(seen[0]?.branch.approval_request).toEqual({ approval_id: "apv_123456", token: null, decided_by: "user-1", ...expected });
  });

  it("passes the resume's approval id through unchanged, for the ApprovalHandler to check", async () => {
    const { graph, seen, config } = harness(waitingTask());
    await graph.invoke({}, config);
    await graph.invoke(new Command({ resume: { response: { type: "accept", args: null }, decision: "approve", approval_id: "apv_other", token: "tok_abcdefgh", decided_by: "user-1" } }), config);
    expect(seen[0]?.branch.approval_request?.approval_id).toBe("apv_other");
    expect(seen[0]?.branch.approval_id).toBe("apv_123456");
  });
});
