import type { ModelMessage } from "ai";
import type { GraphStateValue, GraphUpdate } from "../state";

/**
 * Interpreter (SPEC.md 2): hands the tool result (or the refusal) back to the Executor's
 * conversation as a tool-result message, clears `proposed_tool` -> Supervisor, which sends
 * the same step back to the Executor. The step stays in progress until the Executor answers
 * without a tool call.
 */
export function interpreterNode() {
  return async (state: GraphStateValue): Promise<GraphUpdate> => {
    const r = state.last_tool_result;
    if (!r) return { proposed_tool: null };
    const toolMessage: ModelMessage = {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: r.call_id, toolName: r.tool_name, output: { type: "text", value: r.status === "success" ? r.output : `ERROR: ${r.output}` } }],
    };
    return { proposed_tool: null, executor_messages: [...state.executor_messages, toolMessage], lifecycle: "STEP_EXECUTION" };
  };
}
