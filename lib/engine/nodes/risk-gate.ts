import { Command, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { canonicalArgs } from "../../policy/canonical";
import { policyDecision } from "../../policy/policy-decision";
import type { EngineDeps } from "../deps";
import { emit, iso } from "../emit";
import { mirror, sendBranch, stepOf } from "../branch";
import { describeCall } from "../outcomes";
import type { BranchTask, GraphUpdate, StepBranch, ToolResultState } from "../state";

/** A tool result that never ran (blocked, refused, integrity error). */
export function refusedResult(tool: string, callId: string, output: string, code: string): ToolResultState {
  return { tool_name: tool, call_id: callId, output, status: "error", evicted: false, pointer: null, size_chars: output.length, rehydration_allowed: false, metadata: { code } };
}

/**
 * RiskGate (docs/architecture.md#nodes). Recomputes the RFC 8785 canonical form of the proposed
 * arguments and its SHA-256 and refuses the call when it differs from `args_hash`
 * (integrity error; a hash the model or anyone else produced is never trusted). A tool not
 * wired to the current agent is refused. Then the flow's policies decide on the tool name,
 * the canonical arguments and the run's permission level (the matched rule is shown): ALLOW -> Tools;
 * BLOCKED (or a tool the agent does not have) -> the step's try ends as blocked, final, ->
 * Supervisor; AUTH_REQUIRED -> a signed approval challenge is stored -> AwaitApproval. A call
 * an approver edited without its token (`revised_from`) is never ALLOWed outright: it
 * waits for an approval of its own.
 * An integrity error goes back to the agent as a failed call (Interpreter).
 */
export function riskGateNode(deps: EngineDeps) {
  return async (task: BranchTask, config?: LangGraphRunnableConfig): Promise<Command> => {
    const { branch } = task;
    const p = branch.proposed_tool;
    if (!p) return new Command({ goto: sendBranch("interpreter", task, branch) });
    const at = iso(deps.now());
    const view = { toolCallId: p.tool_call_id, agentId: branch.agent.id, toolName: p.name, args: p.args, argsHash: p.args_hash, output: null };
    const refuse = async (output: string, code: string, status: "blocked" | "error", decision: "BLOCKED" | null, rule: string | null): Promise<Command> => {
      const record = { action: code, at, actor: "risk_gate", tool: p.name, args_hash: p.args_hash, detail: output, key: `${code}:${p.tool_call_id}` };
      await deps.audit(task.thread_id, record);
      emit(config, { type: "data-tool", id: p.tool_call_id, data: { ...view, status, decision, rule, output } });
      const result = refusedResult(p.name, p.tool_call_id, output, code);
      if (status === "blocked") {
        // A blocked action is final: the step's try ends here, without handing the refusal
        // back to the agent (which could only retry it or claim it done). The Supervisor
        // records the step as blocked and the run goes on with what it can still do.
        const text = `${describeCall(p.name, p.args)} was not done: ${rule ? `blocked by policy (${rule}).` : output}`;
        const blocked: StepBranch = { ...branch, phase: "done", proposed_tool: null, last_tool_result: result, output: { step_id: branch.step_id, text, ok: false, final: "blocked" } };
        return new Command({ update: { audit_trail: [record], ...mirror(blocked) }, goto: "supervisor" });
      }
      const next: StepBranch = { ...branch, last_tool_result: result };
      return new Command({ update: { audit_trail: [record], ...mirror(next) }, goto: sendBranch("interpreter", task, next) });
    };

    let recomputed: { canonical: string; hash: string };
    try {
      recomputed = canonicalArgs(p.args);
    } catch {
      return refuse("The arguments are not valid JSON; the call was refused.", "integrity_error", "error", null, null);
    }
    // Both the hash and the canonical text shown to the approver must be those of the args
    // that will run; neither is taken from the proposal.
    if (recomputed.hash !== p.args_hash || recomputed.canonical !== p.canonical_args) {
      return refuse("Integrity error: the arguments do not match their hash; the call was refused.", "integrity_error", "error", null, null);
    }
    const agent = deps.flow.agents.find((a) => a.id === branch.agent.id);
    if (!agent?.tools.includes(p.name) || !deps.tools.describe(p.name)) {
      return refuse(`Tool ${p.name} is not available to this agent; the call was refused.`, "tool_not_allowed", "blocked", "BLOCKED", null);
    }
    // The PolicyDecision (docs/architecture.md#run-lifecycle) on the canonical arguments (never the raw ones),
    // checked against its consistency rule.
    const judged = deps.flow.decide(p.name, recomputed.canonical, deps.permission);
    const decided =
      p.revised_from && judged.decision === "ALLOW"
        ? { ...judged, decision: "AUTH_REQUIRED" as const, explanation: `edited by an approver from ${p.revised_from}; needs its own approval (policy alone: ${judged.explanation})` }
        : judged;
    const policy = policyDecision(p.name, decided);
    const { decision } = policy;
    const ruleText = decided.explanation;
    const risk = { risk: policy.risk_level, reason: policy.reason };
    if (decision === "BLOCKED") {
      return refuse(`BLOCKED by policy (${ruleText}): ${p.name} may not run in this flow.`, "tool_blocked", "blocked", "BLOCKED", ruleText);
    }
    // Keyed by the call: the node running again after a crash records it once.
    const proposed = {
      action: "tool_proposed",
      at,
      actor: branch.agent.id,
      tool: p.name,
      args_hash: p.args_hash,
      detail: `${policy.reason} (risk ${policy.risk_level})`,
      key: `tool_proposed:${p.tool_call_id}`,
    };
    await deps.audit(task.thread_id, proposed);
    if (decision === "ALLOW") {
      emit(config, { type: "data-tool", id: p.tool_call_id, data: { ...view, ...risk, status: "allowed", decision, rule: ruleText } });
      return new Command({ update: { audit_trail: [proposed] }, goto: sendBranch("tools", task, branch) });
    }
    const challenge = await deps.approvals.create({
      threadId: task.thread_id,
      userId: task.user_id,
      toolName: p.name,
      toolCallId: p.tool_call_id,
      canonicalArgs: recomputed.canonical,
      argsHash: recomputed.hash,
      agentId: branch.agent.id,
      agentName: branch.agent.name,
      stepId: branch.step_id,
      stepTask: stepOf(task)?.task ?? "",
      risk: policy.risk_level,
      rule: ruleText,
    });
    emit(config, { type: "data-tool", id: p.tool_call_id, data: { ...view, ...risk, status: "awaiting_approval", decision, rule: ruleText } });
    emit(config, {
      type: "data-approval",
      id: challenge.id,
      data: {
        approvalId: challenge.id,
        toolName: p.name,
        toolCallId: p.tool_call_id,
        canonicalArgs: recomputed.canonical,
        argsHash: recomputed.hash,
        token: challenge.token,
        expiresAt: challenge.expiresAt,
        status: "pending",
        risk: policy.risk_level,
        rule: ruleText,
        allow: { accept: true, edit: true, respond: true, ignore: true },
      },
    });
    const required = { action: "approval_required", at, actor: "risk_gate", tool: p.name, args_hash: p.args_hash, detail: challenge.id };
    const next: StepBranch = { ...branch, phase: "awaiting_approval", awaiting_approval: true, approval_id: challenge.id, approval_outcome: null };
    const update: GraphUpdate = { lifecycle: "WAIT_HUMAN", audit_trail: [proposed, required], ...mirror(next) };
    return new Command({ update, goto: sendBranch("await_approval", task, next) });
  };
}
