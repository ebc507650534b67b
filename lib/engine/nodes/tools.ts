import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { EngineDeps } from "../deps";
import { emit, iso } from "../emit";
import { toolResultState } from "../eviction";
import type { GraphStateValue, GraphUpdate } from "../state";

/**
 * Tools (SPEC.md 2, 7): runs the proposed call through the tool gateway (validated input
 * and output, timeout, sandboxed workspace) with the exact arguments the RiskGate (and the
 * approver) saw, records the execution in the audit trail -> Interpreter. Outputs over
 * 10,000 chars are evicted to blob storage before they enter the state (see eviction.ts).
 */
export function toolsNode(deps: EngineDeps) {
  return async (state: GraphStateValue, config?: LangGraphRunnableConfig): Promise<GraphUpdate> => {
    const p = state.proposed_tool;
    if (!p) return {};
    const view = { toolCallId: p.tool_call_id, toolName: p.name, args: p.args, argsHash: p.args_hash, decision: null, rule: null };
    emit(config, { type: "data-tool", id: p.tool_call_id, data: { ...view, status: "running", output: null } });
    const res = await deps.tools.run(p.name, p.args, state.thread_id);
    const record = {
      action: "tool_executed",
      at: iso(deps.now()),
      actor: state.current_agent?.id ?? "executor",
      tool: p.name,
      args_hash: p.args_hash,
      detail: `${res.status}${res.errorCode ? ` (${res.errorCode})` : ""} in ${res.durationMs} ms`,
    };
    await deps.audit(state.thread_id, record);
    const result = await toolResultState(deps, state.thread_id, { name: p.name, id: p.tool_call_id }, res);
    const evicted = result.pointer ? { pointer: result.pointer, sizeChars: result.size_chars, rehydrationAllowed: result.rehydration_allowed } : null;
    emit(config, { type: "data-tool", id: p.tool_call_id, data: { ...view, status: res.status === "success" ? "done" : "error", output: result.output, evicted } });
    return { audit_trail: [record], last_tool_result: result };
  };
}
