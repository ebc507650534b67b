import { Command, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { mirror, sendBranch } from "../branch";
import type { EngineDeps } from "../deps";
import { emit, iso } from "../emit";
import { toolResultState } from "../eviction";
import type { BranchTask, StepBranch } from "../state";

/**
 * Tools (SPEC.md 2, 7): runs the proposed call through the tool gateway (validated input
 * and output, timeout, sandboxed workspace) with the exact arguments the RiskGate (and the
 * approver) saw, records the execution in the audit trail -> Interpreter. Outputs over
 * 10,000 chars are evicted to blob storage before they enter the state (see eviction.ts).
 */
export function toolsNode(deps: EngineDeps) {
  return async (task: BranchTask, config?: LangGraphRunnableConfig): Promise<Command> => {
    const { branch } = task;
    const p = branch.proposed_tool;
    if (!p) return new Command({ goto: sendBranch("interpreter", task, branch) });
    const view = { toolCallId: p.tool_call_id, agentId: branch.agent.id, toolName: p.name, args: p.args, argsHash: p.args_hash, decision: null, rule: null };
    emit(config, { type: "data-tool", id: p.tool_call_id, data: { ...view, status: "running", output: null } });
    const res = await deps.tools.run(p.name, p.args, task.thread_id, { stepId: branch.step_id, agentId: branch.agent.id, toolCallId: p.tool_call_id });
    const record = {
      action: "tool_executed",
      at: iso(deps.now()),
      actor: branch.agent.id,
      tool: p.name,
      args_hash: p.args_hash,
      detail: `${res.status}${res.errorCode ? ` (${res.errorCode})` : ""} in ${res.durationMs} ms`,
    };
    await deps.audit(task.thread_id, record);
    const result = await toolResultState(deps, task.thread_id, { name: p.name, id: p.tool_call_id }, res);
    const evicted = result.pointer ? { pointer: result.pointer, sizeChars: result.size_chars, rehydrationAllowed: result.rehydration_allowed } : null;
    // Short-term memory (SPEC.md 6): what this agent did and what came of it. Keyed by the
    // call, so a node LangGraph runs again does not append twice.
    await deps.memory?.append(task.thread_id, {
      key: `tool:${p.tool_call_id}`,
      agentId: branch.agent.id,
      action: p.name,
      result: res.status === "success" ? result.output : `failed${res.errorCode ? ` (${res.errorCode})` : ""}: ${result.output}`,
      stepId: branch.step_id,
    });
    emit(config, { type: "data-tool", id: p.tool_call_id, data: { ...view, status: res.status === "success" ? "done" : "error", output: result.output, evicted } });
    const next: StepBranch = { ...branch, last_tool_result: result };
    return new Command({ update: { audit_trail: [record], ...mirror(next) }, goto: sendBranch("interpreter", task, next) });
  };
}
