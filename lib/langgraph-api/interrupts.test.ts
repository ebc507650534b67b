import { describe, expect, it } from "vitest";
import type { ApprovalInterrupt } from "../engine/nodes/await-approval";
import { approvalIdsOf, platformInterrupts, publishInterruptValue, type TicketLookup } from "./interrupts";

const approval: ApprovalInterrupt = {
  action_request: { action: "write_file", args: { path: "summary.md", content: "hi" } },
  config: { allow_accept: true, allow_respond: true, allow_edit: true, allow_ignore: true },
  description: "Approve write_file with exactly these arguments? sha256 abc",
  approval_id: "apv_1",
  args_hash: "abc",
  step_id: "s1",
};
const withToken: TicketLookup = (id) => (id === "apv_1" ? { expires_at: "2030-01-01T00:00:00.000Z", token: "tok-live" } : undefined);
const withoutToken: TicketLookup = (id) => (id === "apv_1" ? { expires_at: "2030-01-01T00:00:00.000Z" } : undefined);

describe("publishInterruptValue", () => {
  it("publishes an approval as one HumanInterrupt whose action_request carries the challenge and the token", () => {
    expect(publishInterruptValue([approval], withToken)).toEqual([
      {
        action_request: { action: "write_file", args: { path: "summary.md", content: "hi" }, approval: { id: "apv_1", args_hash: "abc", expires_at: "2030-01-01T00:00:00.000Z", token: "tok-live" } },
        config: { allow_accept: true, allow_respond: true, allow_edit: true, allow_ignore: true },
        description: "Approve write_file with exactly these arguments? sha256 abc",
      },
    ]);
  });
  it("leaves the token out for a caller who may not decide (a viewer) or an approval no longer pending", () => {
    const [published] = publishInterruptValue([approval], withoutToken) as { action_request: { approval: Record<string, unknown> } }[];
    expect(published?.action_request.approval).toEqual({ id: "apv_1", args_hash: "abc", expires_at: "2030-01-01T00:00:00.000Z" });
    expect(JSON.stringify(publishInterruptValue([approval], () => undefined))).not.toContain("token");
  });
  it("never publishes a token stored in the arguments (only the approval's own, from the lookup)", () => {
    const leaky = { ...approval, action_request: { action: "call", args: { api_token: "sk-secret", note: "APPROVE apv_123456 abcdefgh123" } } };
    const text = JSON.stringify(publishInterruptValue([leaky], withoutToken));
    expect(text).not.toContain("sk-secret");
    expect(text).not.toContain("abcdefgh123");
  });
  it("wraps a question as a HumanInterrupt answered with a response, keeping its stored fields", () => {
    expect(publishInterruptValue({ kind: "question", question: "Which file?", stepId: "s2" }, withToken)).toEqual([
      {
        kind: "question",
        question: "Which file?",
        stepId: "s2",
        action_request: { action: "answer_question", args: { question: "Which file?", step_id: "s2" } },
        config: { allow_accept: false, allow_edit: false, allow_respond: true, allow_ignore: false },
        description: "Which file?",
      },
    ]);
  });
  it("wraps an outcome-unknown call as accept (run again) or ignore (skip)", () => {
    const stored = {
      kind: "outcome_unknown",
      toolCallId: "c1",
      tool: "write_file",
      args: { path: "a" },
      argsHash: "h",
      approvalId: null,
      stepId: "s1",
      agentId: "a1",
      attempt: 1,
      startedAt: "t",
      description: "Did it run?",
    };
    const [v] = publishInterruptValue(stored, withToken) as Record<string, unknown>[];
    expect(v).toMatchObject({ ...stored, action_request: { action: "write_file", args: { path: "a" } }, config: { allow_accept: true, allow_ignore: true, allow_edit: false, allow_respond: false } });
  });
});

describe("platformInterrupts", () => {
  const snapshot = {
    tasks: [
      { id: "task-a", interrupts: [{ id: "int-1", value: [approval] }] },
      { id: "task-b", interrupts: [] },
      { id: "task-c", interrupts: [{ id: "int-2", value: { kind: "question", question: "Why?" } }] },
    ],
  };
  it("groups interrupts by task id (tasks without any left out) and lists them all in task order", () => {
    const { byTask, all } = platformInterrupts(snapshot, withToken);
    expect(Object.keys(byTask)).toEqual(["task-a", "task-c"]);
    expect(byTask["task-a"]?.[0]?.id).toBe("int-1");
    expect(all.map((i) => i.id)).toEqual(["int-1", "int-2"]);
  });
  it("names the approvals to look up", () => {
    expect(approvalIdsOf(snapshot)).toEqual(["apv_1"]);
  });
});
