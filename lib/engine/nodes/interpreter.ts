import { Command } from "@langchain/langgraph";
import type { ModelMessage } from "ai";
import { structuredError } from "../../errors";
import { sha256Hex } from "../../policy/canonical";
import { mirror } from "../branch";
import type { BranchTask, GraphUpdate, StepBranch } from "../state";

/** The same call with the same input and output this many times stops the run (docs/architecture.md#retries-limits-and-eviction). */
export const LOOP_REPEATS = 3;

/**
 * Interpreter (docs/architecture.md#nodes): hands the tool result (or the refusal) back to the Executor's
 * conversation as a tool-result message, clears `proposed_tool` -> Supervisor, which sends
 * the same step back to the Executor. The step stays in progress until the Executor answers
 * without a tool call. Loop detector: the same tool with the same input and output for the
 * third time sets a structured error, and the Supervisor stops the run.
 */
export function interpreterNode() {
  return async (task: BranchTask): Promise<Command> => {
    const { branch } = task;
    const r = branch.last_tool_result;
    if (!r) return new Command({ update: mirror({ ...branch, phase: "returned", proposed_tool: null }), goto: "supervisor" });
    const toolMessage: ModelMessage = {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: r.call_id, toolName: r.tool_name, output: { type: "text", value: r.status === "error" ? `ERROR: ${r.output}` : r.output } }],
    };
    const argsHash = branch.proposed_tool?.args_hash ?? "";
    // Evicted outputs carry a fresh pointer each time: compare them by size.
    const outputHash = sha256Hex(r.evicted ? `evicted:${r.size_chars}` : `${r.status}:${r.output}`);
    const entry = { tool: r.tool_name, args_hash: argsHash, output_hash: outputHash };
    const repeats = 1 + branch.tool_history.filter((h) => h.tool === entry.tool && h.args_hash === entry.args_hash && h.output_hash === entry.output_hash).length;
    const next: StepBranch = {
      ...branch,
      phase: "returned",
      proposed_tool: null,
      executor_messages: [...branch.executor_messages, toolMessage],
      tool_history: [...branch.tool_history, entry],
    };
    if (repeats >= LOOP_REPEATS) {
      const error = structuredError("loop_detected", `The run stopped: ${r.tool_name} was called ${repeats} times with the same input and gave the same output.`, {
        metadata: { tool: r.tool_name, args_hash: argsHash, repeats },
      });
      const stopped: StepBranch = { ...next, phase: "done", output: { step_id: branch.step_id, text: error.message, ok: false } };
      return new Command({ update: { error, ...mirror(stopped) }, goto: "supervisor" });
    }
    const update: GraphUpdate = { lifecycle: "STEP_EXECUTION", ...mirror(next) };
    return new Command({ update, goto: "supervisor" });
  };
}
