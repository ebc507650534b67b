import { Command, type LangGraphRunnableConfig } from "@langchain/langgraph";
import type { ModelMessage } from "ai";
import { canonicalArgs } from "../../policy/canonical";
import { mirror, sendBranch } from "../branch";
import type { EngineDeps } from "../deps";
import { emit, iso } from "../emit";
import { describeCall } from "../outcomes";
import type { ApprovalOutcome, AuditRecord, BranchTask, GraphUpdate, ProposedTool, StepBranch } from "../state";

/**
 * ApprovalHandler (docs/architecture.md#nodes), in the branch of the step whose call waits:
 * - approve: the seven factors (approval id, expiry, args hash, HMAC signature, one-time
 *   use, thread, user) are validated against the stored challenge and the hash recomputed
 *   from the branch's arguments; the challenge is consumed in one conditional update -> Tools.
 * - edit: the same, plus the edited arguments are canonicalised (RFC 8785), must match the
 *   edited hash the approver's decision stored, and the flow's policy is evaluated on them
 *   again (BLOCKED: the tool does not run); the call runs with them -> Tools. The audit
 *   keeps both hashes.
 * - respond: the tool does not run; the approver's response goes back to the agent as the
 *   call's result (AI SDK "execution-denied", naming who answered) and the step goes on ->
 *   Supervisor -> Executor. The agent may propose another call (judged and approved on its
 *   own); if it ends the step on the call that was not run, the step is `rejected`
 *   ({@link respondedCall}, docs/runs.md "Respond").
 * - reject: `awaiting_approval`, `proposed_tool` and `approval_id` are cleared; the step's
 *   try ends as rejected (final: the action is cancelled, never retried) and the Supervisor
 *   records who rejected it and why.
 * - ignore: the run is cancelled (state `cancelled`) -> Supervisor -> Finalizer.
 * - revise: an edit sent without the token (docs/langgraph-api.md#deciding-approvals); the challenge
 *   was closed when the decision was accepted. Nothing runs: the edited call replaces the
 *   proposal under a new tool call id (`edit-<approval id>`) and goes back to the RiskGate,
 *   which asks for an approval of its own even where the policy would allow it -> RiskGate.
 * - expired: nobody decided in time; the step failed this try and the Supervisor decides
 *   (asks again with a new challenge while tries remain, else the step fails).
 * Any failure: the tool does not run; a bad chat command leaves the call waiting for a
 * valid decision, any other failure goes to the Supervisor as an invalid approval.
 */
export function approvalHandlerNode(deps: EngineDeps) {
  return async (task: BranchTask, config?: LangGraphRunnableConfig): Promise<Command> => {
    const { branch } = task;
    const req = branch.approval_request;
    const p = branch.proposed_tool;
    const at = iso(deps.now());
    if (!req || !p || !branch.approval_id) {
      return settle({ ...branch, phase: "done", output: { step_id: branch.step_id, text: "No call was waiting for approval.", ok: false } });
    }
    const approvalId = branch.approval_id;
    // Keyed per approval, so the node running again after a crash records each once
    // (a refusal may repeat: a bad chat command can be followed by another).
    const record = (action: string, detail: string, argsHash = p.args_hash): AuditRecord => ({
      action,
      at,
      actor: req.decided_by,
      tool: p.name,
      args_hash: argsHash,
      detail,
      ...(action === "approval_refused" ? {} : { key: `${action}:${approvalId}` }),
    });
    const outcome = (decision: ApprovalOutcome["decision"], reason: string): ApprovalOutcome => ({ approval_id: approvalId, tool_name: p.name, decision, reason });
    /** Ends the step's try without running the tool. */
    const closed = async (r: AuditRecord, o: ApprovalOutcome, text: string, extra: GraphUpdate = {}, final?: "rejected") => {
      await deps.audit(task.thread_id, r);
      const output = { step_id: branch.step_id, text, ok: false, ...(final ? { final } : {}) };
      return settle({ ...branch, ...cleared, phase: "done", approval_outcome: o, output }, [r], extra);
    };

    const closing = req.kind === "reject" || req.kind === "respond" || req.kind === "ignore" || req.kind === "revise";
    if (closing && req.approval_id !== approvalId) return refuse(config, task, "That approval id does not match the pending call.", req.via);
    switch (req.kind) {
      case "reject": {
        const reason = req.reason ?? "no reason given";
        const { by } = await deps.approvals.reject({ approvalId, threadId: task.thread_id, userId: req.decided_by, reason });
        emitTool(config, branch.agent.id, p, "rejected", `Rejected by ${by}: ${reason}`);
        // Final for this action: the step is recorded as rejected, never retried.
        const text = `${describeCall(p.name, p.args)} was not done: rejected by ${by} (${reason}).`;
        return closed(record("approval_rejected", reason), outcome("rejected", reason), text, {}, "rejected");
      }
      case "ignore": {
        emitTool(config, branch.agent.id, p, "rejected", "Dismissed by the approver; the run is cancelled.");
        const why = `The approver dismissed ${p.name}; the run was cancelled.`;
        return closed(record("approval_ignored", req.reason ?? "dismissed"), outcome("ignored", why), why, { cancelled: { by: req.decided_by, reason: why } });
      }
      case "expired": {
        emitTool(config, branch.agent.id, p, "error", "The approval expired before anyone decided; the tool did not run.");
        const why = `Nobody decided on ${p.name} before the approval expired.`;
        return closed({ ...record("approval_expired", approvalId), actor: "system" }, outcome("expired", why), why);
      }
      case "respond": {
        const feedback = req.reason ?? "";
        // Already closed as respond when the decision was accepted: this only names who answered.
        const { by } = await deps.approvals.reject({ approvalId, threadId: task.thread_id, userId: req.decided_by, reason: feedback, decision: "respond" });
        const r = record("approval_responded", feedback);
        await deps.audit(task.thread_id, r);
        emitTool(config, branch.agent.id, p, "rejected", `Not run; ${by} responded: ${feedback}`);
        // The response is the call's result (AI SDK "execution-denied" with the approver's words):
        // the agent reads it and goes on with the step.
        const toolMessage: ModelMessage = {
          role: "tool",
          content: [{ type: "tool-result", toolCallId: p.tool_call_id, toolName: p.name, output: { type: "execution-denied", reason: `${by} did not run this call and answered: ${feedback}` } }],
        };
        const next: StepBranch = {
          ...branch,
          ...cleared,
          phase: "returned",
          executor_messages: [...branch.executor_messages, toolMessage],
          approval_outcome: outcome("responded", feedback),
        };
        return settle(next, [r]);
      }
      case "revise":
        return revise(deps, task, config, record);
      case "approve":
      case "edit":
        return approveOrEdit(deps, task, config, req.kind === "edit" ? req.edited_args : undefined, record, outcome);
    }
  };
}

const cleared = { awaiting_approval: false, proposed_tool: null, approval_id: null, approval_request: null } as const;

/**
 * The step's report when its agent ends the step right after a call an approver answered
 * with Respond (its conversation ends on that call's "execution-denied" result): the call
 * was not run, so the step's work was not done, e.g. `write_file summary.md was not run:
 * Alice did not run this call and answered: Keep it under five bullets.` The Executor ends
 * the try as `rejected` with it (final, like a rejection: never retried), so the step, the
 * run (`incomplete`) and the answer agree (docs/runs.md "Respond"). Null when the
 * conversation does not end on such a call (the agent made another call after it).
 * @param messages the step's conversation before the agent's reply.
 */
export function respondedCall(messages: readonly ModelMessage[]): string | null {
  const last = messages.at(-1);
  if (last?.role !== "tool" || !Array.isArray(last.content)) return null;
  for (const part of last.content) {
    if (part.type !== "tool-result" || part.output.type !== "execution-denied") continue;
    let args: unknown;
    for (const m of messages) {
      if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
      for (const c of m.content) if (c.type === "tool-call" && c.toolCallId === part.toolCallId) args = c.input;
    }
    return `${describeCall(part.toolName, args)} was not run: ${(part.output.reason ?? "an approver answered instead of running it").replace(/\.?$/, ".")}`;
  }
  return null;
}

/** Hands the branch to the Supervisor with its audit records. */
function settle(next: StepBranch, records: AuditRecord[] = [], extra: GraphUpdate = {}): Command {
  return new Command({ update: { ...extra, audit_trail: records, ...mirror(next) }, goto: "supervisor" });
}

async function approveOrEdit(
  deps: EngineDeps,
  task: BranchTask,
  config: LangGraphRunnableConfig | undefined,
  editedArgs: unknown,
  record: (action: string, detail: string, argsHash?: string) => AuditRecord,
  outcome: (decision: ApprovalOutcome["decision"], reason: string) => ApprovalOutcome,
): Promise<Command> {
  const { branch } = task;
  const req = branch.approval_request;
  const p = branch.proposed_tool as ProposedTool;
  const approvalId = branch.approval_id as string;
  const isEdit = editedArgs !== undefined;
  const hashOf = (v: unknown) => {
    try {
      return canonicalArgs(v);
    } catch {
      return null;
    }
  };
  const original = hashOf(p.args);
  const edited = isEdit ? hashOf(editedArgs) : null;
  let result: { ok: true } | { ok: false; reason: string; message: string };
  if (!req || req.approval_id !== approvalId || original?.hash !== p.args_hash || (isEdit && !edited)) {
    result = { ok: false, reason: "approval_mismatch", message: "The approval does not match the pending call." };
  } else {
    result = await deps.approvals.consume({
      approvalId,
      token: req.token ?? "",
      threadId: task.thread_id,
      userId: req.decided_by,
      argsHash: original.hash,
      toolCallId: p.tool_call_id,
      ...(edited ? { editedArgsHash: edited.hash } : {}),
    });
  }
  // An edit is judged again by the flow's policy on its canonical arguments.
  if (result.ok && edited) {
    const d = deps.flow.decide(p.name, edited.canonical, deps.permission);
    if (d.decision === "BLOCKED") result = { ok: false, reason: "edit_blocked_by_policy", message: `The edited arguments are BLOCKED by policy (${d.explanation}).` };
  }
  if (!result.ok) {
    const r = record("approval_refused", result.reason);
    await deps.audit(task.thread_id, r);
    if (req?.via === "chat" && result.reason !== "approval_expired") return refuse(config, task, result.message, req.via);
    emitTool(config, branch.agent.id, p, "error", `The tool did not run: ${result.message}`);
    const next: StepBranch = {
      ...branch,
      ...cleared,
      phase: "done",
      approval_outcome: outcome("invalid", result.message),
      output: { step_id: branch.step_id, text: `The approval was refused: ${result.message}`, ok: false },
    };
    return settle(next, [r]);
  }
  const records = [record("approval_consumed", approvalId)];
  let call = p;
  let messages = branch.executor_messages;
  if (edited) {
    const args = JSON.parse(edited.canonical) as unknown;
    call = { ...p, args, canonical_args: edited.canonical, args_hash: edited.hash };
    records.push(record("approval_edited", `arguments edited by the approver: sha256 ${p.args_hash} -> ${edited.hash}`, edited.hash));
    // The agent's conversation shows the call that actually runs.
    messages = messages.map((m) =>
      m.role === "assistant" && Array.isArray(m.content) ? { ...m, content: m.content.map((c) => (c.type === "tool-call" && c.toolCallId === p.tool_call_id ? { ...c, input: args } : c)) } : m,
    );
    emit(config, {
      type: "data-tool",
      id: p.tool_call_id,
      data: { toolCallId: p.tool_call_id, agentId: branch.agent.id, toolName: p.name, args, argsHash: edited.hash, status: "allowed", decision: "AUTH_REQUIRED", rule: null, output: null },
    });
  }
  for (const r of records) await deps.audit(task.thread_id, r);
  const next: StepBranch = {
    ...branch,
    phase: "running",
    proposed_tool: call,
    executor_messages: messages,
    awaiting_approval: false,
    approval_request: null,
    approval_outcome: outcome(edited ? "edited" : "approved", edited ? `edited to sha256 ${edited.hash}` : "approved"),
  };
  return new Command({ update: { audit_trail: records, ...mirror(next) }, goto: sendBranch("tools", task, next) });
}

/**
 * Replaces the waiting call by the approver's edited call, which nothing has approved:
 * the old call is reported as not run, the agent's conversation shows the edited call
 * under its new id, and the RiskGate judges it again (`revised_from` makes it ask for an
 * approval). The new id is derived from the closed approval, so the node running again
 * after a crash proposes the same call.
 */
async function revise(deps: EngineDeps, task: BranchTask, config: LangGraphRunnableConfig | undefined, record: (action: string, detail: string, argsHash?: string) => AuditRecord): Promise<Command> {
  const { branch } = task;
  const p = branch.proposed_tool as ProposedTool;
  const approvalId = branch.approval_id as string;
  const raw = branch.approval_request?.edited_args;
  let edited: { canonical: string; hash: string } | null = null;
  try {
    if (typeof raw === "object" && raw !== null && !Array.isArray(raw)) edited = canonicalArgs(raw);
  } catch {
    edited = null;
  }
  if (!edited) return refuse(config, task, "The edited arguments are not a JSON object.", branch.approval_request?.via ?? "card");
  const args = JSON.parse(edited.canonical) as unknown;
  const call: ProposedTool = { name: p.name, args, canonical_args: edited.canonical, args_hash: edited.hash, tool_call_id: `edit-${approvalId}`, revised_from: approvalId };
  const r = record("approval_revised", `arguments edited without running: sha256 ${p.args_hash} -> ${edited.hash}; the edited call (${call.tool_call_id}) needs its own approval`);
  await deps.audit(task.thread_id, r);
  emitTool(config, branch.agent.id, p, "rejected", `Not run: replaced by the approver's edited call, which waits for its own approval.`);
  const messages = branch.executor_messages.map((m) =>
    m.role === "assistant" && Array.isArray(m.content)
      ? { ...m, content: m.content.map((c) => (c.type === "tool-call" && c.toolCallId === p.tool_call_id ? { ...c, toolCallId: call.tool_call_id, input: args } : c)) }
      : m,
  );
  const next: StepBranch = { ...branch, ...cleared, phase: "running", proposed_tool: call, executor_messages: messages };
  return new Command({ update: { audit_trail: [r], ...mirror(next) }, goto: sendBranch("risk_gate", task, next) });
}

function emitTool(config: LangGraphRunnableConfig | undefined, agentId: string, p: ProposedTool, status: "rejected" | "error", output: string): void {
  emit(config, {
    type: "data-tool",
    id: p.tool_call_id,
    data: { toolCallId: p.tool_call_id, agentId, toolName: p.name, args: p.args, argsHash: p.args_hash, status, decision: "AUTH_REQUIRED", rule: null, output },
  });
}

/** A chat decision that does not validate: say why, keep the call waiting. */
function refuse(config: LangGraphRunnableConfig | undefined, task: BranchTask, why: string, via: "card" | "chat" | "system"): Command {
  const text = `Approval not accepted (${via}): ${why} The call still waits for a valid decision.`;
  emit(config, { type: "text", id: `refused-${task.branch.approval_id}-${Date.now()}`, text });
  const next: StepBranch = { ...task.branch, phase: "awaiting_approval", approval_request: null };
  return new Command({ update: { messages: [{ role: "assistant", content: text }], ...mirror(next) }, goto: sendBranch("await_approval", task, next) });
}
