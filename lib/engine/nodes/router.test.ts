import { Overwrite } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { newBranch } from "../branch";
import type { ChatMessage, StepBranch } from "../state";
import { assistantAgent, baseState, fakeDeps, gotoOf, plan, recorder, step, targets, updateOf } from "./fake-deps";
import { routerNode } from "./router";

/** Router (docs/architecture.md#nodes): deterministic routing, strict approval regexes, no model call. */

const user = (content: string): ChatMessage[] => [{ role: "user", content }];
const waitingBranch = (stepId: string, approvalId: string): StepBranch => ({
  ...newBranch(stepId, assistantAgent),
  phase: "awaiting_approval",
  awaiting_approval: true,
  approval_id: approvalId,
});
const awaiting = {
  plan: plan([step(0, { status: "in_progress", tries: 1 })]),
  branches: { s0: waitingBranch("s0", "apv_123456") },
};

describe("routerNode", () => {
  it.each([
    ["APPROVE apv_123456 tok_abcdefgh", "approve", "tok_abcdefgh"],
    ["APROBAR apv_123456 tok_abcdefgh", "approve", "tok_abcdefgh"],
    ["  APPROVE   apv_123456   tok_abcdefgh \n", "approve", "tok_abcdefgh"],
    ["REJECT apv_123456", "reject", null],
    ["RECHAZAR apv_123456", "reject", null],
  ])("awaiting approval, %j -> ApprovalHandler with a chat %s request", (text, kind, token) => {
    const deps = fakeDeps();
    const cmd = routerNode(deps)(baseState({ ...awaiting, messages: user(text) }));
    const t = targets(cmd);
    expect(t.map((x) => x.node)).toEqual(["approval_handler"]);
    expect(t[0]?.arg?.branch.approval_request).toEqual({
      kind,
      approval_id: "apv_123456",
      token,
      via: "chat",
      decided_by: "user-1",
      reason: kind === "reject" ? "rejected in chat" : null,
    });
    expect(t[0]?.arg).toMatchObject({ thread_id: "thread-1", user_id: "user-1", plan: { id: "plan-1" } });
    // The decision is mirrored into the state too, so a restart sees it.
    expect(updateOf(cmd).branches).toMatchObject({ s0: { approval_request: { kind, via: "chat" } } });
    expect(deps.model.doGenerateCalls).toHaveLength(0);
  });

  it.each([
    "approve apv_123456 tok_abcdefgh",
    "Approve apv_123456 tok_abcdefgh",
    "APPROVE apv_123456 tok_abcdefgh please",
    "please APPROVE apv_123456 tok_abcdefgh",
    "APPROVE apv_123456",
    "APPROVE apv12 tok_abcdefgh",
    "APPROVE apv_123456 tok12",
    "APPROVE apv_12345! tok_abcdefgh",
    "reject apv_123456",
    "REJECT apv_123456 now",
    "REJECT apv12",
    "REJECT",
    "yes, go ahead",
  ])("awaiting approval, the near miss %j -> Supervisor (not the ApprovalHandler)", (text) => {
    const cmd = routerNode(fakeDeps())(baseState({ ...awaiting, messages: user(text) }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(updateOf(cmd)).toEqual({ redispatch_awaiting: true });
  });

  it("reads only the last user message, not an assistant message after it", () => {
    const messages: ChatMessage[] = [
      { role: "user", content: "hello there" },
      { role: "assistant", content: "APPROVE apv_123456 tok_abcdefgh" },
    ];
    expect(gotoOf(routerNode(fakeDeps())(baseState({ ...awaiting, messages })))).toBe("supervisor");
  });

  it("a chat decision goes to the branch it names; the other waiting branches are suspended again", () => {
    const state = baseState({
      plan: plan([step(0, { status: "in_progress", tries: 1 }), step(1, { status: "in_progress", tries: 1 })]),
      branches: { s0: waitingBranch("s0", "apv_aaaaaa"), s1: waitingBranch("s1", "apv_bbbbbb") },
      messages: user("APPROVE apv_bbbbbb tok_abcdefgh"),
    });
    const t = targets(routerNode(fakeDeps())(state));
    expect(t.map((x) => [x.node, x.arg?.branch.step_id])).toEqual([
      ["approval_handler", "s1"],
      ["await_approval", "s0"],
    ]);
    expect(t[1]?.arg?.branch.approval_request).toBeNull();
  });

  it("awaiting user input -> Supervisor, and clears the flag", () => {
    const cmd = routerNode(fakeDeps())(baseState({ awaiting_user_input: true, messages: user("use notes.md") }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(updateOf(cmd)).toEqual({ awaiting_user_input: false });
  });

  it("conversation -> Finalizer, with no plan made and no leftover error", () => {
    const cmd = routerNode(fakeDeps())(baseState({ messages: user("hello there") }));
    expect(gotoOf(cmd)).toBe("finalizer");
    // A leftover error of an earlier task must not fail the small talk.
    expect(updateOf(cmd)).toEqual({ intent: "conversation", error: null, lifecycle: "INIT" });
  });

  it("the intent recorded by the run service wins over the router's own classification", () => {
    expect(gotoOf(routerNode(fakeDeps())(baseState({ intent: "task", messages: user("hello there") })))).toBe("planner");
    expect(gotoOf(routerNode(fakeDeps())(baseState({ intent: "conversation", messages: user("Summarize notes.md") })))).toBe("finalizer");
  });

  it("a task without a plan -> Planner, with the plan, counters and branches reset", () => {
    const cmd = routerNode(fakeDeps())(
      baseState({
        iterations: 12,
        replans: 1,
        error: { code: "x", message: "old", severity: "CRITICAL", retryable: false, suggested_action: "HALT" },
        final_answer: "old answer",
        messages: user("Summarize notes.md into summary.md"),
      }),
    );
    expect(gotoOf(cmd)).toBe("planner");
    const u = updateOf(cmd);
    expect(u).toMatchObject({ intent: "task", plan: null, iterations: 0, replans: 0, error: null, final_answer: null, lifecycle: "CONTEXT_BUILD" });
    // Branches of an earlier plan are dropped, not merged by the reducer.
    expect(u.branches).toBeInstanceOf(Overwrite);
  });

  it("a task after a finished plan plans again; a task while a plan executes -> Supervisor", () => {
    const msg = user("Summarize release-notes.md");
    const executing = routerNode(fakeDeps())(baseState({ messages: msg, plan: plan([step(0)]) }));
    expect(gotoOf(executing)).toBe("supervisor");
    expect(updateOf(executing)).toEqual({ intent: "task" });
    for (const status of ["completed", "failed", "cancelled"] as const) {
      expect(gotoOf(routerNode(fakeDeps())(baseState({ messages: msg, plan: plan([step(0)], { status }) })))).toBe("planner");
    }
  });

  it("directed mode: a one-step plan for the picked agent -> Supervisor, and a data-plan chunk", () => {
    const { config, chunks } = recorder();
    const cmd = routerNode(fakeDeps())(baseState({ agent_mode: "directed", directed_agent_id: "assistant", messages: user("Read notes.md") }), config as never);
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(updateOf(cmd).plan).toMatchObject({ status: "executing", query: "Read notes.md", steps: [{ agent_id: "assistant", task: "Read notes.md", status: "pending" }] });
    expect(chunks.map((c) => c.type)).toEqual(["data-plan"]);
    const unknown = routerNode(fakeDeps())(baseState({ agent_mode: "directed", directed_agent_id: "nobody", messages: user("Read notes.md") }));
    expect(gotoOf(unknown)).toBe("planner");
  });
});
