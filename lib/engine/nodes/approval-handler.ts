import { Command, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { canonicalArgs } from "../../policy/canonical";
import { mirror, sendBranch } from "../branch";
import type { EngineDeps } from "../deps";
import { emit, iso } from "../emit";
import type { BranchTask, ProposedTool, StepBranch } from "../state";

/**
 * ApprovalHandler (SPEC.md 2), in the branch of the step whose call waits. Reject: the
 * challenge is marked rejected, and `awaiting_approval`, `proposed_tool` and `approval_id`
 * are cleared; the Supervisor is told that the user rejected the tool. Approve: the seven
 * factors (approval id, expiry, args hash, HMAC signature, one-time use, thread, user) are
 * validated against the stored challenge and the hash recomputed from the branch's
 * arguments, and the challenge is consumed in one conditional update -> Tools. Any failure:
 * the tool does not run; a bad chat command leaves the call waiting for a valid decision,
 * any other failure goes to the Supervisor as an invalid approval.
 */
export function approvalHandlerNode(deps: EngineDeps) {
  return async (task: BranchTask, config?: LangGraphRunnableConfig): Promise<Command> => {
    const { branch } = task;
    const req = branch.approval_request;
    const p = branch.proposed_tool;
    const at = iso(deps.now());
    const cleared = { awaiting_approval: false, proposed_tool: null, approval_id: null, approval_request: null };
    const toSupervisor = (next: StepBranch, records: { action: string; at: string; actor: string }[] = []) =>
      new Command({ update: { audit_trail: records, ...mirror(next) }, goto: "supervisor" });
    if (!req || !p || !branch.approval_id) {
      return toSupervisor({ ...branch, ...cleared, phase: "done", output: { step_id: branch.step_id, text: "No call was waiting for approval.", ok: false } });
    }
    const approvalId = branch.approval_id;
    if (req.kind === "reject") {
      if (req.approval_id !== approvalId) return refuse(config, task, "That approval id does not match the pending call.", req.via);
      const reason = req.reason ?? "no reason given";
      await deps.approvals.reject({ approvalId, threadId: task.thread_id, userId: req.decided_by, reason });
      const record = { action: "approval_rejected", at, actor: req.decided_by, tool: p.name, args_hash: p.args_hash, detail: reason };
      await deps.audit(task.thread_id, record);
      emitTool(config, p, "rejected", `Rejected by the user: ${reason}`);
      const why = `The user rejected ${p.name}: ${reason}`;
      return toSupervisor(
        {
          ...branch,
          ...cleared,
          phase: "done",
          approval_outcome: { approval_id: approvalId, tool_name: p.name, decision: "rejected", reason },
          output: { step_id: branch.step_id, text: why, ok: false },
        },
        [record],
      );
    }
    let argsHash: string;
    try {
      argsHash = canonicalArgs(p.args).hash;
    } catch {
      argsHash = "";
    }
    const result =
      req.approval_id !== approvalId || argsHash !== p.args_hash
        ? { ok: false as const, reason: "approval_mismatch", message: "The approval does not match the pending call." }
        : await deps.approvals.consume({ approvalId: req.approval_id, token: req.token ?? "", threadId: task.thread_id, userId: req.decided_by, argsHash });
    if (!result.ok) {
      const record = { action: "approval_refused", at, actor: req.decided_by, tool: p.name, args_hash: p.args_hash, detail: result.reason };
      await deps.audit(task.thread_id, record);
      if (req.via === "chat" && result.reason !== "approval_expired") return refuse(config, task, result.message, req.via);
      emitTool(config, p, "error", `The tool did not run: ${result.message}`);
      return toSupervisor(
        {
          ...branch,
          ...cleared,
          phase: "done",
          approval_outcome: { approval_id: approvalId, tool_name: p.name, decision: "invalid", reason: result.message },
          output: { step_id: branch.step_id, text: `The approval was refused: ${result.message}`, ok: false },
        },
        [record],
      );
    }
    const record = { action: "approval_consumed", at, actor: req.decided_by, tool: p.name, args_hash: p.args_hash, detail: req.approval_id };
    await deps.audit(task.thread_id, record);
    const next: StepBranch = {
      ...branch,
      phase: "running",
      awaiting_approval: false,
      approval_request: null,
      approval_outcome: { approval_id: req.approval_id, tool_name: p.name, decision: "approved", reason: "approved" },
    };
    return new Command({ update: { audit_trail: [record], ...mirror(next) }, goto: sendBranch("tools", task, next) });
  };
}

function emitTool(config: LangGraphRunnableConfig | undefined, p: ProposedTool, status: "rejected" | "error", output: string): void {
  emit(config, {
    type: "data-tool",
    id: p.tool_call_id,
    data: { toolCallId: p.tool_call_id, toolName: p.name, args: p.args, argsHash: p.args_hash, status, decision: "AUTH_REQUIRED", rule: null, output },
  });
}

/** A chat decision that does not validate: say why, keep the call waiting. */
function refuse(config: LangGraphRunnableConfig | undefined, task: BranchTask, why: string, via: "card" | "chat"): Command {
  const text = `Approval not accepted (${via}): ${why} The call still waits for a valid decision.`;
  emit(config, { type: "text", id: `refused-${task.branch.approval_id}-${Date.now()}`, text });
  const next: StepBranch = { ...task.branch, phase: "awaiting_approval", approval_request: null };
  return new Command({ update: { messages: [{ role: "assistant", content: text }], ...mirror(next) }, goto: sendBranch("await_approval", task, next) });
}
