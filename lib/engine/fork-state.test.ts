import { TASKS } from "@langchain/langgraph-checkpoint";
import { describe, expect, it } from "vitest";
import { newBranch } from "./branch";
import { blobPointers, forkChannelValues } from "./fork-state";
import { REDACTED, redactSecrets, summarizeState } from "./safe-state";
import type { StepBranch } from "./state";

const agent = { id: "assistant", name: "Assistant", icon: "📁", color: "#2f7d5b" };
const target = { originThreadId: "origin-1", forkThreadId: "fork-1", userId: "forker" };
const prompt = { role: "user" as const, content: "Step 1 of 1. Write it." };
const call = { role: "assistant" as const, content: [{ type: "tool-call" as const, toolCallId: "call_1-ab", toolName: "write_file", input: { path: "a.md" } }] };
const proposed = { name: "write_file", args: { path: "a.md" }, canonical_args: '{"path":"a.md"}', args_hash: "h", tool_call_id: "call_1-ab" };

/** A branch whose write waits at AwaitApproval for challenge apv_001. */
const waitingBranch = (stepId: string): StepBranch => ({
  ...newBranch(stepId, agent),
  phase: "awaiting_approval",
  awaiting_approval: true,
  approval_id: "apv_001",
  executor_messages: [prompt, call],
  proposed_tool: proposed,
});
const task = (node: string, b: StepBranch) => ({ node, args: { thread_id: "origin-1", user_id: "origin-user", plan: { id: "p" }, branch: b } });

describe("forkChannelValues", () => {
  it("gives the state, the input and pending sends to the fork's thread and user, resets the clock", () => {
    const b = { ...newBranch("s1", agent), executor_messages: [prompt] };
    const { values, dropped } = forkChannelValues(
      { thread_id: "origin-1", user_id: "origin-user", run_started_at: 123, __start__: { thread_id: "origin-1", user_id: "origin-user" }, branches: { s1: b }, [TASKS]: [task("executor", b)] },
      target,
    );
    expect(dropped).toEqual([]);
    expect(values).toMatchObject({ thread_id: "fork-1", user_id: "forker", run_started_at: 0, __start__: { thread_id: "fork-1", user_id: "forker" } });
    expect(values[TASKS]).toEqual([{ node: "executor", args: { thread_id: "fork-1", user_id: "forker", plan: { id: "p" }, branch: b } }]);
  });

  it("rewinds a call waiting on approval to before its proposal and sends the branch to the Executor", () => {
    const w = waitingBranch("s1");
    const { values, dropped } = forkChannelValues({ thread_id: "origin-1", user_id: "origin-user", branches: { s1: w }, [TASKS]: [task("await_approval", w)] }, target);
    expect(dropped).toEqual([{ stepId: "s1", tool: "write_file", approvalId: "apv_001" }]);
    const rewound = (values.branches as Record<string, StepBranch>).s1;
    expect(rewound).toMatchObject({ phase: "running", executor_messages: [prompt], proposed_tool: null, awaiting_approval: false, approval_id: null, approval_request: null });
    expect(values[TASKS]).toEqual([{ node: "executor", args: expect.objectContaining({ thread_id: "fork-1", branch: rewound }) }]);
  });

  it("without a pending send the rewound branch is 'returned', which the Supervisor hands to the Executor", () => {
    const { values } = forkChannelValues({ thread_id: "origin-1", branches: { s1: waitingBranch("s1") }, redispatch_awaiting: true }, target);
    expect((values.branches as Record<string, StepBranch>).s1?.phase).toBe("returned");
  });

  it("an approved call that has not run yet is dropped; a call the policy allowed is not", () => {
    const approved: StepBranch = {
      ...waitingBranch("s1"),
      phase: "running",
      awaiting_approval: false,
      approval_outcome: { approval_id: "apv_001", tool_name: "write_file", decision: "approved", reason: "approved" },
    };
    const allowed: StepBranch = { ...newBranch("s2", agent), executor_messages: [prompt, call], proposed_tool: { ...proposed, name: "read_file" } };
    const { values, dropped } = forkChannelValues({ branches: { s1: approved, s2: allowed }, [TASKS]: [task("tools", approved), task("tools", allowed)] }, target);
    expect(dropped.map((d) => d.stepId)).toEqual(["s1"]);
    expect((values[TASKS] as { node: string }[]).map((p) => p.node)).toEqual(["executor", "tools"]);
    expect((values.branches as Record<string, StepBranch>).s2).toEqual(allowed);
  });

  it("settled branches keep their history; tokens are redacted; blob pointers are renamed", () => {
    const done: StepBranch = {
      ...newBranch("s1", agent),
      phase: "done",
      approval_request: { kind: "approve", approval_id: "apv_001", token: "secret-token-123", via: "chat", decided_by: "u", reason: null },
      last_tool_result: {
        tool_name: "read_file",
        call_id: "c",
        output: "[EVICTED size=20000] See blob:abcdef123",
        status: "evicted",
        evicted: true,
        pointer: "blob:abcdef123",
        size_chars: 20000,
        rehydration_allowed: true,
        metadata: {},
      },
    };
    const input = { branches: { s1: done }, messages: [{ role: "user", content: "APPROVE apv_001 secret-token-123" }] };
    expect(blobPointers(input)).toEqual(["abcdef123"]);
    const { values, dropped } = forkChannelValues(input, { ...target, blobIds: new Map([["abcdef123", "zyxwvu987"]]) });
    expect(dropped).toEqual([]);
    expect(JSON.stringify(values)).not.toContain("secret-token-123");
    const kept = (values.branches as Record<string, StepBranch>).s1;
    expect(kept?.approval_request?.token).toBe(REDACTED);
    expect(kept?.last_tool_result).toMatchObject({ pointer: "blob:zyxwvu987", output: "[EVICTED size=20000] See blob:zyxwvu987" });
    expect(values.messages).toEqual([{ role: "user", content: `APPROVE apv_001 ${REDACTED}` }]);
    expect(input.branches.s1.approval_request?.token).toBe("secret-token-123");
  });
});

describe("redactSecrets and summarizeState", () => {
  it("redacts secret-named strings and chat tokens, keeps token counts and ordinary text", () => {
    const out = redactSecrets({ token_usage: { input_tokens: 5 }, nested: [{ api_key: "sk-1", password: "", note: "APROBAR abc123 tok_456789 now" }], text: "no token here" });
    expect(out).toEqual({ token_usage: { input_tokens: 5 }, nested: [{ api_key: REDACTED, password: "", note: `APROBAR abc123 ${REDACTED} now` }], text: "no token here" });
  });

  it("summarises plan progress, waiting approvals and questions", () => {
    const step = (index: number, status: "completed" | "in_progress" | "pending") => ({
      id: `s${index}`,
      index,
      agent_id: "assistant",
      task: `task ${index}`,
      expected_output: "",
      depends_on: [],
      status,
      tries: 1,
      max_tries: 3,
      result: null,
      error: null,
      started_at: null,
      ended_at: null,
    });
    const plan = {
      id: "p",
      query: "q",
      status: "executing" as const,
      steps: [step(0, "completed"), step(1, "in_progress"), step(2, "pending")],
      current_step_index: 1,
      summary: null,
      failure_reason: null,
      created_at: "",
      updated_at: "",
    };
    const s = summarizeState({ plan, branches: { s1: waitingBranch("s1") }, messages: [{ role: "user", content: "APPROVE apv_001 secret-token-123" }] }, [{ kind: "question", question: "?" }]);
    expect(s).toMatchObject({ plan: { status: "executing", stepsTotal: 3, stepsCompleted: 1, current: { index: 1, task: "task 1" } }, awaitingApproval: true, awaitingInput: true, messages: 1 });
    expect(s.lastMessage?.content).toBe(`APPROVE apv_001 ${REDACTED}`);
    expect(summarizeState({})).toMatchObject({ plan: null, awaitingApproval: false, awaitingInput: false, messages: 0, lastMessage: null, errorCode: null });
  });
});
