import { describe, expect, it } from "vitest";
import { newBranch, sendBranch } from "./branch";
import { assistantAgent, plan, step } from "./node-fixtures";
import type { BranchTask } from "./state";

const steps = [step(0, { status: "completed", result: "notes" }), step(1, { status: "in_progress", tries: 1, depends_on: ["s0"] }), step(2)];
const task = (messages: number): BranchTask => ({
  thread_id: "t",
  user_id: "u",
  plan: plan(steps),
  branch: { ...newBranch("s1", assistantAgent), executor_messages: Array.from({ length: messages }, () => ({ role: "user" as const, content: "x" })) },
});
const payload = (node: Parameters<typeof sendBranch>[0], t: BranchTask) => sendBranch(node, t, t.branch).args as BranchTask;

describe("sendBranch payloads (each is stored twice per super-step)", () => {
  it("carries the whole plan only to the Executor's first turn of a try", () => {
    expect(payload("executor", task(0)).plan.steps.map((s) => s.id)).toEqual(["s0", "s1", "s2"]);
  });

  it("every other hop carries the branch's own step alone", () => {
    for (const node of ["risk_gate", "tools", "interpreter", "await_approval", "approval_handler"] as const) {
      expect(payload(node, task(1)).plan.steps.map((s) => s.id)).toEqual(["s1"]);
    }
    expect(payload("executor", task(2)).plan.steps.map((s) => s.id)).toEqual(["s1"]);
    expect(payload("tools", task(1)).plan.id).toBe("plan-1");
  });
});
