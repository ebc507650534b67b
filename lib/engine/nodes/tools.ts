import { Command, interrupt, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { mirror, sendBranch } from "../branch";
import type { EngineDeps } from "../deps";
import { emit, iso } from "../emit";
import { toolResultState } from "../eviction";
import { describeCall } from "../outcomes";
import type { AuditRecord, BranchTask, ProposedTool, StepBranch, ToolResultState } from "../state";
import type { ToolCallOutcome, ToolExecutionClaim } from "../tool-executions";

/**
 * The interrupt a run stops on when a side-effecting call started but has no recorded
 * outcome (the process died during the call): a person chooses retry (run it again) or
 * skip (the step is reported as not done). Times are ISO-8601; `attempt` counts from 1.
 */
export interface OutcomeUnknownInterrupt {
  kind: "outcome_unknown";
  toolCallId: string;
  tool: string;
  args: unknown;
  argsHash: string;
  approvalId: string | null;
  stepId: string;
  agentId: string;
  attempt: number;
  startedAt: string;
  /** What the card says, in plain words. */
  description: string;
}

/**
 * Tools (SPEC.md 2, 7): runs the proposed call through the tool gateway (validated input
 * and output, timeout, sandboxed workspace) with the exact arguments the RiskGate (and the
 * approver) saw, records the execution in the audit trail -> Interpreter. Outputs over
 * 10,000 chars are evicted to blob storage before they enter the state (see eviction.ts).
 *
 * Exactly once (docs/durability.md "Side effects"): LangGraph runs this node again when a
 * run resumes from the checkpoint before it. So a call of a side-effecting tool (see
 * tool-executions.ts for which) has its intent committed before it runs and its outcome
 * after; when this node runs again, a completed call is not run: its recorded outcome is
 * used. A call that started without an outcome stops the run with an `outcome_unknown`
 * interrupt until a person chooses retry (a new attempt runs) or skip (the step ends as
 * skipped, final). The audit entry and short-term memory entry are keyed by the call (and
 * attempt), so a re-run never records them twice.
 */
export function toolsNode(deps: EngineDeps) {
  return async (task: BranchTask, config?: LangGraphRunnableConfig): Promise<Command> => {
    const { branch } = task;
    const p = branch.proposed_tool;
    if (!p) return new Command({ goto: sendBranch("interpreter", task, branch) });
    const view = { toolCallId: p.tool_call_id, agentId: branch.agent.id, toolName: p.name, args: p.args, argsHash: p.args_hash, decision: null, rule: null };
    const sideEffect = deps.tools.describe(p.name)?.sideEffect ?? true;
    const key = { threadId: task.thread_id, toolCallId: p.tool_call_id };
    let claim: ToolExecutionClaim = { kind: "run", attempt: 1 };
    if (sideEffect) {
      const intent = { ...key, toolName: p.name, argsHash: p.args_hash, approvalId: branch.approval_id, stepId: branch.step_id, agentId: branch.agent.id };
      claim = await deps.executions.begin(intent, deps.now());
      // Started with no outcome: what the system can observe settles it without a person
      // (the workspace shows the write happened, or the tool is safe to run again).
      if (claim.kind === "unknown") claim = await reconciled(deps, task, p, claim, intent);
      // Otherwise ask a person. The choice is recorded before the run resumes
      // (run-outcome.ts), so the next `begin` answers run (retry), completed (it happened)
      // or skipped.
      while (claim.kind === "unknown") {
        const payload = unknownPayload(task, p, claim);
        emit(config, { type: "data-tool", id: p.tool_call_id, data: { ...view, status: "error", output: payload.description } });
        // The card where a person chooses, stored as the run's outcome_unknown event.
        const { kind: _kind, ...card } = payload;
        emit(config, { type: "data-outcome", id: p.tool_call_id, data: { ...card, status: "pending" } });
        interrupt<OutcomeUnknownInterrupt, unknown>(payload);
        claim = await deps.executions.begin(intent, deps.now());
      }
      if (claim.kind === "skipped") return skipped(deps, task, p, claim.decidedBy, config);
    }

    let outcome: ToolCallOutcome;
    if (claim.kind === "completed") {
      // Ran before the process stopped: its recorded outcome, never a second execution.
      outcome = claim.outcome;
    } else {
      emit(config, { type: "data-tool", id: p.tool_call_id, data: { ...view, status: "running", output: null } });
      const res = await deps.tools.run(p.name, p.args, task.thread_id, { stepId: branch.step_id, agentId: branch.agent.id, toolCallId: p.tool_call_id });
      const result = await toolResultState(deps, task.thread_id, { name: p.name, id: p.tool_call_id }, res);
      outcome = { status: res.status, result, errorCode: res.errorCode ?? null, durationMs: res.durationMs };
      if (sideEffect) await deps.executions.finish(key, claim.attempt, outcome, deps.now());
    }
    const { result } = outcome;
    const record: AuditRecord = {
      action: "tool_executed",
      at: iso(deps.now()),
      actor: branch.agent.id,
      tool: p.name,
      args_hash: p.args_hash,
      detail: `${outcome.status}${outcome.errorCode ? ` (${outcome.errorCode})` : ""} in ${outcome.durationMs} ms`,
      key: `tool_executed:${p.tool_call_id}:${claim.attempt}`,
    };
    await deps.audit(task.thread_id, record);
    const evicted = result.pointer ? { pointer: result.pointer, sizeChars: result.size_chars, rehydrationAllowed: result.rehydration_allowed } : null;
    // Short-term memory (SPEC.md 6): what this agent did and what came of it. Keyed by the
    // call, so a node LangGraph runs again does not append twice.
    await deps.memory?.append(task.thread_id, {
      key: `tool:${p.tool_call_id}`,
      agentId: branch.agent.id,
      action: p.name,
      result: outcome.status === "success" ? result.output : `failed${outcome.errorCode ? ` (${outcome.errorCode})` : ""}: ${result.output}`,
      stepId: branch.step_id,
    });
    emit(config, { type: "data-tool", id: p.tool_call_id, data: { ...view, status: outcome.status === "success" ? "done" : "error", output: result.output, evicted } });
    const next: StepBranch = { ...branch, last_tool_result: result };
    return new Command({ update: { audit_trail: [record], ...mirror(next) }, goto: sendBranch("interpreter", task, next) });
  };
}

/**
 * Settles a call whose outcome is unknown when the system can tell (docs/durability.md "Side
 * effects"): the tool observes it happened (its outcome is recorded as confirmed by the
 * engine) or did not, or it is idempotent for these arguments (both: a new attempt runs).
 * Each is one conditional update on the record, audited once.
 * @returns the claim to go on with: completed, run, or the same unknown claim (ask a person).
 */
async function reconciled(
  deps: EngineDeps,
  task: BranchTask,
  p: ProposedTool,
  claim: Extract<ToolExecutionClaim, { kind: "unknown" }>,
  intent: Parameters<EngineDeps["executions"]["begin"]>[0],
): Promise<ToolExecutionClaim> {
  const found = await deps.tools.reconcile?.(p.name, p.args, task.thread_id, { stepId: task.branch.step_id, agentId: task.branch.agent.id, toolCallId: p.tool_call_id });
  if (!found || found.kind === "ask") return claim;
  const key = { threadId: task.thread_id, toolCallId: p.tool_call_id };
  const call = describeCall(p.name, p.args);
  let detail: string;
  if (found.kind === "happened") {
    const res = { status: "success" as const, output: found.output, sizeChars: found.output.length, durationMs: 0 };
    const result = await toolResultState(deps, task.thread_id, { name: p.name, id: p.tool_call_id }, res);
    await deps.executions.decide(key, claim.attempt, "happened", null, deps.now(), { status: "success", result, errorCode: null, durationMs: 0 });
    detail = `${call} (attempt ${claim.attempt}, started ${claim.startedAt}) had taken effect: the workspace shows it.`;
  } else {
    await deps.executions.decide(key, claim.attempt, "retry", null, deps.now());
    detail =
      found.why === "idempotent"
        ? `${call} (attempt ${claim.attempt}, started ${claim.startedAt}) is run again: it is idempotent, so running it twice does it once.`
        : `${call} (attempt ${claim.attempt}, started ${claim.startedAt}) is run again: the workspace shows it had not taken effect.`;
  }
  const action = found.kind === "happened" ? "outcome_observed" : "outcome_retry";
  await deps.audit(task.thread_id, { action, at: iso(deps.now()), actor: "engine", tool: p.name, args_hash: p.args_hash, detail, key: `${action}:${p.tool_call_id}:${claim.attempt}` });
  // Whoever decided (this or a concurrent choice), the record now says what to do.
  return deps.executions.begin(intent, deps.now());
}

function unknownPayload(task: BranchTask, p: ProposedTool, claim: { attempt: number; startedAt: string }): OutcomeUnknownInterrupt {
  return {
    kind: "outcome_unknown",
    toolCallId: p.tool_call_id,
    tool: p.name,
    args: p.args,
    argsHash: p.args_hash,
    approvalId: task.branch.approval_id,
    stepId: task.branch.step_id,
    agentId: task.branch.agent.id,
    attempt: claim.attempt,
    startedAt: claim.startedAt,
    description: `${describeCall(p.name, p.args)} started at ${claim.startedAt}, but the server stopped before its result was recorded: it may or may not have taken effect. Run it again, or skip it?`,
  };
}

/** A person chose skip: the step's try ends as skipped (final, never retried) -> Supervisor. */
async function skipped(deps: EngineDeps, task: BranchTask, p: ProposedTool, by: string, config: LangGraphRunnableConfig | undefined): Promise<Command> {
  const { branch } = task;
  const text = `${describeCall(p.name, p.args)} was not done: the server stopped during the call, so whether it took effect is unknown, and ${by} chose to skip it.`;
  const record: AuditRecord = { action: "tool_skipped", at: iso(deps.now()), actor: branch.agent.id, tool: p.name, args_hash: p.args_hash, detail: text, key: `tool_skipped:${p.tool_call_id}` };
  await deps.audit(task.thread_id, record);
  emit(config, {
    type: "data-tool",
    id: p.tool_call_id,
    data: { toolCallId: p.tool_call_id, agentId: branch.agent.id, toolName: p.name, args: p.args, argsHash: p.args_hash, status: "rejected", decision: null, rule: null, output: text },
  });
  const result: ToolResultState = {
    tool_name: p.name,
    call_id: p.tool_call_id,
    output: text,
    status: "error",
    evicted: false,
    pointer: null,
    size_chars: text.length,
    rehydration_allowed: false,
    metadata: { code: "skipped" },
  };
  const next: StepBranch = { ...branch, phase: "done", proposed_tool: null, last_tool_result: result, output: { step_id: branch.step_id, text, ok: false, final: "skipped" } };
  return new Command({ update: { audit_trail: [record], ...mirror(next) }, goto: "supervisor" });
}
