import { Command, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { canonicalArgs } from "../../policy/canonical";
import type { EngineDeps } from "../deps";
import { emit, iso } from "../emit";
import type { GraphStateValue, GraphUpdate } from "../state";

/** Where the ApprovalHandler sends a run (SPEC.md 2). */
export type ApprovalHandlerTarget = "tools" | "supervisor" | "await_approval";

/**
 * ApprovalHandler (SPEC.md 2). Reject: the challenge is marked rejected, and
 * `awaiting_approval`, `proposed_tool` and `approval_id` are cleared; the Supervisor is told
 * that the user rejected the tool. Approve: the seven factors (approval id, expiry, args
 * hash, HMAC signature, one-time use, thread, user) are validated against the stored
 * challenge and the hash recomputed from the state's arguments, and the challenge is
 * consumed in one conditional update -> Tools. Any failure: the tool does not run; a bad
 * chat command leaves the call waiting for a valid decision, any other failure goes to the
 * Supervisor as an invalid approval.
 */
export function approvalHandlerNode(deps: EngineDeps) {
  return async (state: GraphStateValue, config?: LangGraphRunnableConfig): Promise<Command<ApprovalHandlerTarget>> => {
    const req = state.approval_request;
    const p = state.proposed_tool;
    const at = iso(deps.now());
    const cleared: GraphUpdate = { awaiting_approval: false, proposed_tool: null, approval_id: null, approval_request: null };
    if (!req || !p || !state.approval_id) {
      return new Command({ update: { ...cleared, approval_outcome: null }, goto: "supervisor" });
    }
    if (req.kind === "reject") {
      if (req.approval_id !== state.approval_id) return refuse(config, state, "That approval id does not match the pending call.", req.via);
      const reason = req.reason ?? "no reason given";
      await deps.approvals.reject({ approvalId: state.approval_id, threadId: state.thread_id, userId: req.decided_by, reason });
      const record = { action: "approval_rejected", at, actor: req.decided_by, tool: p.name, args_hash: p.args_hash, detail: reason };
      await deps.audit(state.thread_id, record);
      emitTool(config, p, "rejected", `Rejected by the user: ${reason}`);
      const update: GraphUpdate = {
        ...cleared,
        approval_outcome: { approval_id: state.approval_id, tool_name: p.name, decision: "rejected", reason },
        audit_trail: [record],
      };
      return new Command({ update, goto: "supervisor" });
    }
    let argsHash: string;
    try {
      argsHash = canonicalArgs(p.args).hash;
    } catch {
      argsHash = "";
    }
    const result =
      req.approval_id !== state.approval_id || argsHash !== p.args_hash
        ? { ok: false as const, reason: "approval_mismatch", message: "The approval does not match the pending call." }
        : await deps.approvals.consume({ approvalId: req.approval_id, token: req.token ?? "", threadId: state.thread_id, userId: req.decided_by, argsHash });
    if (!result.ok) {
      const record = { action: "approval_refused", at, actor: req.decided_by, tool: p.name, args_hash: p.args_hash, detail: result.reason };
      await deps.audit(state.thread_id, record);
      if (req.via === "chat" && result.reason !== "approval_expired") return refuse(config, state, result.message, req.via);
      emitTool(config, p, "error", `The tool did not run: ${result.message}`);
      const update: GraphUpdate = {
        ...cleared,
        approval_outcome: { approval_id: state.approval_id, tool_name: p.name, decision: "invalid", reason: result.message },
        audit_trail: [record],
      };
      return new Command({ update, goto: "supervisor" });
    }
    const record = { action: "approval_consumed", at, actor: req.decided_by, tool: p.name, args_hash: p.args_hash, detail: req.approval_id };
    await deps.audit(state.thread_id, record);
    const update: GraphUpdate = {
      awaiting_approval: false,
      approval_request: null,
      approval_outcome: { approval_id: req.approval_id, tool_name: p.name, decision: "approved", reason: "approved" },
      audit_trail: [record],
    };
    return new Command({ update, goto: "tools" });
  };
}

function emitTool(config: LangGraphRunnableConfig | undefined, p: NonNullable<GraphStateValue["proposed_tool"]>, status: "rejected" | "error", output: string): void {
  emit(config, {
    type: "data-tool",
    id: p.tool_call_id,
    data: { toolCallId: p.tool_call_id, toolName: p.name, args: p.args, argsHash: p.args_hash, status, decision: "AUTH_REQUIRED", rule: null, output },
  });
}

/** A chat decision that does not validate: say why, keep the call waiting. */
function refuse(config: LangGraphRunnableConfig | undefined, state: GraphStateValue, why: string, via: "card" | "chat"): Command<ApprovalHandlerTarget> {
  const text = `Approval not accepted (${via}): ${why} The call still waits for a valid decision.`;
  emit(config, { type: "text", id: `refused-${state.approval_id}-${state.messages.length}`, text });
  return new Command({ update: { approval_request: null, messages: [{ role: "assistant", content: text }] }, goto: "await_approval" });
}
