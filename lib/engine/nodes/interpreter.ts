import type { ModelMessage } from "ai";
import { structuredError } from "../../errors";
import { sha256Hex } from "../../policy/canonical";
import type { GraphStateValue, GraphUpdate } from "../state";

/** The same call with the same input and output this many times stops the run (SPEC.md 2). */
export const LOOP_REPEATS = 3;

/**
 * Interpreter (SPEC.md 2): hands the tool result (or the refusal) back to the Executor's
 * conversation as a tool-result message, clears `proposed_tool` -> Supervisor, which sends
 * the same step back to the Executor. The step stays in progress until the Executor answers
 * without a tool call. Loop detector: the same tool with the same input and output for the
 * third time sets a structured error, and the Supervisor stops the run.
 */
export function interpreterNode() {
  return async (state: GraphStateValue): Promise<GraphUpdate> => {
    const r = state.last_tool_result;
    if (!r) return { proposed_tool: null };
    const toolMessage: ModelMessage = {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: r.call_id, toolName: r.tool_name, output: { type: "text", value: r.status === "success" ? r.output : `ERROR: ${r.output}` } }],
    };
    const argsHash = state.proposed_tool?.args_hash ?? "";
    // Evicted outputs carry a fresh pointer each time: compare them by size.
    const outputHash = sha256Hex(r.evicted ? `evicted:${r.size_chars}` : `${r.status}:${r.output}`);
    const entry = { tool: r.tool_name, args_hash: argsHash, output_hash: outputHash };
    const repeats = 1 + state.tool_history.filter((h) => h.tool === entry.tool && h.args_hash === entry.args_hash && h.output_hash === entry.output_hash).length;
    const update: GraphUpdate = { proposed_tool: null, executor_messages: [...state.executor_messages, toolMessage], tool_history: [...state.tool_history, entry], lifecycle: "STEP_EXECUTION" };
    if (repeats >= LOOP_REPEATS) {
      update.error = structuredError("loop_detected", `The run stopped: ${r.tool_name} was called ${repeats} times with the same input and gave the same output.`, {
        metadata: { tool: r.tool_name, args_hash: argsHash, repeats },
      });
    }
    return update;
  };
}
