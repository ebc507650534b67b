import { describe, expect, it } from "vitest";
import { canonicalArgs } from "../../policy/canonical";
import { workspaceAssistant } from "../../../templates/workspace-assistant";
import type { ApprovalRequest, StepBranch } from "../state";
import { approvalHandlerNode, respondedCall } from "./approval-handler";
import { branchTask, fakeDeps, gotoOf, mirrored, proposal, recorder, targets, updateOf } from "./fake-deps";

/** ApprovalHandler (docs/architecture.md#nodes): reject, or approve after the seven-factor check; failures never run the tool. */

const p = proposal("write_file", { path: "summary.md", content: "hi" });
const waiting = (req: Partial<ApprovalRequest> = {}, extra: Partial<StepBranch> = {}) =>
  branchTask({
    proposed_tool: p,
    awaiting_approval: true,
    approval_id: "apv_123456",
    approval_request: { kind: "approve", approval_id: "apv_123456", token: "tok_abcdefgh", via: "card", decided_by: "user-1", reason: null, ...req },
    ...extra,
  });

describe("approvalHandlerNode", () => {
  it.each(["card", "chat"] as const)("reject (%s): marks it rejected, clears the pending call, ends the try as rejected (final) naming who and why -> Supervisor", async (via) => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const cmd = await approvalHandlerNode(deps)(waiting({ kind: "reject", token: null, reason: "not that file", via }), config as never);
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(deps.rejected).toEqual([{ approvalId: "apv_123456", threadId: "thread-1", userId: "user-1", reason: "not that file" }]);
    expect(deps.consumed).toHaveLength(0);
    expect(deps.ran).toHaveLength(0);
    expect(mirrored(cmd)).toMatchObject({
      phase: "done",
      awaiting_approval: false,
      proposed_tool: null,
      approval_id: null,
      approval_request: null,
      approval_outcome: { approval_id: "apv_123456", tool_name: "write_file", decision: "rejected", reason: "not that file" },
      output: { step_id: "s0", ok: false, final: "rejected", text: "write_file summary.md was not done: rejected by user-1 (not that file)." },
    });
    expect(deps.audits).toEqual([{ threadId: "thread-1", action: "approval_rejected", tool: "write_file" }]);
    expect(updateOf(cmd).audit_trail).toMatchObject([{ action: "approval_rejected", args_hash: p.args_hash }]);
    expect(chunks).toMatchObject([{ type: "data-tool", data: { status: "rejected" } }]);
  });

  it("reject naming another challenge: nothing is rejected, the call keeps waiting", async () => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting({ kind: "reject", approval_id: "apv_999999", token: null, via: "chat" }));
    expect(deps.rejected).toHaveLength(0);
    expect(targets(cmd).map((x) => x.node)).toEqual(["await_approval"]);
  });

  it("approve with a valid challenge: consumed with the recomputed hash -> Tools with the same call", async () => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting());
    const t = targets(cmd);
    expect(t.map((x) => x.node)).toEqual(["tools"]);
    expect(deps.consumed).toEqual([{ approvalId: "apv_123456", token: "tok_abcdefgh", threadId: "thread-1", userId: "user-1", toolCallId: "call_1-abcd1234", argsHash: p.args_hash }]);
    expect(t[0]?.arg?.branch).toMatchObject({
      phase: "running",
      proposed_tool: p,
      awaiting_approval: false,
      approval_request: null,
      approval_outcome: { decision: "approved", tool_name: "write_file" },
    });
    expect(deps.audits.map((a) => a.action)).toEqual(["approval_consumed"]);
    // The handler never runs the tool itself.
    expect(deps.ran).toHaveLength(0);
  });

  it("approve via chat with a failing check: the call keeps waiting and the user is told why", async () => {
    const deps = fakeDeps();
    deps.consumeResult = { ok: false, reason: "bad_signature", message: "The approval token is not valid." };
    const { config, chunks } = recorder();
    const cmd = await approvalHandlerNode(deps)(waiting({ via: "chat" }), config as never);
    const t = targets(cmd);
    expect(t.map((x) => x.node)).toEqual(["await_approval"]);
    expect(t[0]?.arg?.branch).toMatchObject({ phase: "awaiting_approval", approval_request: null, approval_id: "apv_123456", proposed_tool: p });
    expect(updateOf(cmd).messages).toEqual([{ role: "assistant", content: expect.stringContaining("The approval token is not valid.") }]);
    expect(chunks).toMatchObject([{ type: "text" }]);
    expect(deps.audits.map((a) => a.action)).toEqual(["approval_refused"]);
  });

  it("approve via card with a failing check: outcome invalid, the step's branch is done -> Supervisor", async () => {
    const deps = fakeDeps();
    deps.consumeResult = { ok: false, reason: "approval_consumed", message: "This approval was already used." };
    const cmd = await approvalHandlerNode(deps)(waiting());
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(mirrored(cmd)).toMatchObject({
      phase: "done",
      proposed_tool: null,
      awaiting_approval: false,
      approval_outcome: { decision: "invalid", reason: "This approval was already used." },
      output: { ok: false },
    });
    expect(deps.ran).toHaveLength(0);
  });

  it("an expired challenge ends the wait even from the chat (no valid decision can come)", async () => {
    const deps = fakeDeps();
    deps.consumeResult = { ok: false, reason: "approval_expired", message: "The approval expired." };
    const cmd = await approvalHandlerNode(deps)(waiting({ via: "chat" }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(mirrored(cmd)?.approval_outcome).toMatchObject({ decision: "invalid" });
  });

  it("an approval for another challenge id is not consumed", async () => {
    const deps = fakeDeps();
    const chat = await approvalHandlerNode(deps)(waiting({ approval_id: "apv_999999", via: "chat" }));
    expect(targets(chat).map((x) => x.node)).toEqual(["await_approval"]);
    const card = await approvalHandlerNode(deps)(waiting({ approval_id: "apv_999999" }));
    expect(gotoOf(card)).toBe("supervisor");
    expect(deps.consumed).toHaveLength(0);
  });

  it.each(["card", "chat"] as const)("arguments tampered in the state (%s): consume is not called and the tool does not run", async (via) => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting({ via }, { proposed_tool: { ...p, args: { path: "summary.md", content: "evil" } } }));
    expect(deps.consumed).toHaveLength(0);
    expect(targets(cmd).map((x) => x.node)).not.toContain("tools");
    expect(deps.audits.map((a) => a.action)).toEqual(["approval_refused"]);
  });

  it("no pending call: the branch is closed as failed -> Supervisor, nothing consumed", async () => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting({}, { proposed_tool: null }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(mirrored(cmd)?.output).toMatchObject({ ok: false });
    expect(deps.consumed).toHaveLength(0);
  });
});

describe("approvalHandlerNode: edit, respond, ignore, expired", () => {
  const edited = { path: "edited.md", content: "hi" };

  it("edit: consumed with the original hash and the edited hash -> Tools with the edited call; the audit keeps both hashes", async () => {
    const deps = fakeDeps();
    const executorMessages = [{ role: "assistant" as const, content: [{ type: "tool-call" as const, toolCallId: p.tool_call_id, toolName: "write_file", input: p.args }] }];
    const cmd = await approvalHandlerNode(deps)(waiting({ kind: "edit", edited_args: edited }, { executor_messages: executorMessages }));
    const t = targets(cmd);
    const next = canonicalArgs(edited);
    expect(t.map((x) => x.node)).toEqual(["tools"]);
    expect(deps.consumed).toEqual([
      { approvalId: "apv_123456", token: "tok_abcdefgh", threadId: "thread-1", userId: "user-1", toolCallId: "call_1-abcd1234", argsHash: p.args_hash, editedArgsHash: next.hash },
    ]);
    expect(t[0]?.arg?.branch.proposed_tool).toEqual({ ...p, args: edited, canonical_args: next.canonical, args_hash: next.hash });
    expect(t[0]?.arg?.branch.approval_outcome).toMatchObject({ decision: "edited" });
    // The agent's conversation shows the call that runs.
    expect(JSON.stringify(t[0]?.arg?.branch.executor_messages)).toContain("edited.md");
    const trail = updateOf(cmd).audit_trail as { action: string; args_hash: string; detail: string }[];
    expect(trail.map((a) => a.action)).toEqual(["approval_consumed", "approval_edited"]);
    expect(trail[1]?.detail).toContain(p.args_hash);
    expect(trail[1]?.args_hash).toBe(next.hash);
  });

  it("revise (an edit without the token): nothing consumed or run; the edited call, under a new id, goes back to the RiskGate", async () => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const executorMessages = [{ role: "assistant" as const, content: [{ type: "tool-call" as const, toolCallId: p.tool_call_id, toolName: "write_file", input: p.args }] }];
    const cmd = await approvalHandlerNode(deps)(waiting({ kind: "revise", token: null, edited_args: edited }, { executor_messages: executorMessages }), config as never);
    const t = targets(cmd);
    const next = canonicalArgs(edited);
    expect(t.map((x) => x.node)).toEqual(["risk_gate"]);
    expect(deps.consumed).toHaveLength(0);
    expect(deps.ran).toHaveLength(0);
    const b = t[0]?.arg?.branch;
    expect(b?.proposed_tool).toEqual({ name: "write_file", args: edited, canonical_args: next.canonical, args_hash: next.hash, tool_call_id: "edit-apv_123456", revised_from: "apv_123456" });
    expect(b).toMatchObject({ awaiting_approval: false, approval_id: null, approval_request: null, phase: "running" });
    // The agent's conversation names the edited call, so its result will match it.
    expect(b?.executor_messages).toEqual([{ role: "assistant", content: [{ type: "tool-call", toolCallId: "edit-apv_123456", toolName: "write_file", input: edited }] }]);
    expect(deps.audits.map((a) => a.action)).toEqual(["approval_revised"]);
    expect(chunks).toMatchObject([{ type: "data-tool", id: p.tool_call_id, data: { status: "rejected", output: expect.stringMatching(/^Not run: replaced/) } }]);
  });

  it("revise with arguments that are not a JSON object keeps the call waiting", async () => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting({ kind: "revise", token: null, edited_args: undefined }));
    expect(targets(cmd).map((x) => x.node)).toEqual(["await_approval"]);
    expect(deps.audits).toHaveLength(0);
  });

  it("edit whose new arguments the policy BLOCKS: the tool does not run, outcome invalid", async () => {
    const doc = structuredClone(workspaceAssistant);
    const policy = doc.nodes.find((n) => n.type === "policy");
    if (policy?.type !== "policy") throw new Error("no policy");
    policy.data.rules.unshift({ tool: "write_file", decision: "BLOCKED", risk: "high", permission: "any", match: [{ kind: "path_glob", field: "path", pattern: "secret*" }] });
    const deps = fakeDeps([], doc);
    const cmd = await approvalHandlerNode(deps)(waiting({ kind: "edit", edited_args: { path: "secret.md", content: "x" } }));
    expect(targets(cmd).map((x) => x.node)).not.toContain("tools");
    expect(mirrored(cmd)?.approval_outcome).toMatchObject({ decision: "invalid" });
    expect(deps.audits.map((a) => a.action)).toEqual(["approval_refused"]);
  });

  it("respond: nothing consumed or run; the feedback is the call's result and the step goes on", async () => {
    const deps = fakeDeps();
    const proposed = { role: "assistant" as const, content: [{ type: "tool-call" as const, toolCallId: p.tool_call_id, toolName: p.name, input: p.args }] };
    const cmd = await approvalHandlerNode(deps)(waiting({ kind: "respond", token: null, reason: "write it to notes-summary.md instead" }, { executor_messages: [proposed] }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(deps.consumed).toHaveLength(0);
    expect(deps.ran).toHaveLength(0);
    const b = mirrored(cmd);
    expect(b).toMatchObject({ phase: "returned", proposed_tool: null, awaiting_approval: false, approval_outcome: { decision: "responded" } });
    expect(JSON.stringify(b?.executor_messages.at(-1))).toContain("user-1 did not run this call and answered: write it to notes-summary.md instead");
    expect(deps.rejected).toEqual([{ approvalId: "apv_123456", threadId: "thread-1", userId: "user-1", reason: "write it to notes-summary.md instead", decision: "respond" }]);
    expect(deps.audits.map((a) => a.action)).toEqual(["approval_responded"]);
    // The agent ending its step on that call reports it as not run (docs/runs.md "Respond").
    expect(respondedCall(b?.executor_messages ?? [])).toBe("write_file summary.md was not run: user-1 did not run this call and answered: write it to notes-summary.md instead.");
  });

  it("respondedCall: null once the agent made another call after the response, or for any other result", () => {
    const call = (id: string, path: string) => ({ role: "assistant" as const, content: [{ type: "tool-call" as const, toolCallId: id, toolName: "write_file", input: { path } }] });
    const denied = {
      role: "tool" as const,
      content: [{ type: "tool-result" as const, toolCallId: "c1", toolName: "write_file", output: { type: "execution-denied" as const, reason: "Ann did not run this call and answered: use b.md" } }],
    };
    const ran = { role: "tool" as const, content: [{ type: "tool-result" as const, toolCallId: "c2", toolName: "write_file", output: { type: "json" as const, value: { bytes: 3 } } }] };
    expect(respondedCall([{ role: "user", content: "go" }, call("c1", "a.md"), denied])).toBe("write_file a.md was not run: Ann did not run this call and answered: use b.md.");
    expect(respondedCall([{ role: "user", content: "go" }, call("c1", "a.md"), denied, call("c2", "b.md"), ran])).toBeNull();
    expect(respondedCall([{ role: "user", content: "go" }])).toBeNull();
  });

  it("ignore: the branch is done and the run is marked cancelled", async () => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting({ kind: "ignore", token: null }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(updateOf(cmd).cancelled).toMatchObject({ by: "user-1" });
    expect(mirrored(cmd)).toMatchObject({ phase: "done", approval_outcome: { decision: "ignored" } });
    expect(deps.ran).toHaveLength(0);
  });

  it("expired: the tool does not run; outcome expired (the Supervisor may ask again)", async () => {
    const deps = fakeDeps();
    const cmd = await approvalHandlerNode(deps)(waiting({ kind: "expired", token: null, via: "system", decided_by: "system" }));
    expect(mirrored(cmd)).toMatchObject({ phase: "done", approval_outcome: { decision: "expired" }, output: { ok: false } });
    expect(deps.consumed).toHaveLength(0);
    expect(deps.audits.map((a) => a.action)).toEqual(["approval_expired"]);
  });
});
