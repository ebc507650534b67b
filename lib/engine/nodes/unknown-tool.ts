import { NoSuchToolError } from "ai";
import { REPORT_IMPOSSIBLE } from "../../models/prompts";

/**
 * The error of an agent's call to a tool it does not have (a misspelled or made-up name, e.g.
 * `read_fil`), as the failed try's error, listing the tools it has: "read_fil is not a tool of
 * this agent; its tools are: read_file, write_file." The try fails and the Supervisor retries
 * it; the step is never `blocked`, which means a policy or the flow's configuration said no
 * (docs/runs.md "When the model misbehaves").
 * @param call a tool call as the AI SDK parsed it (`invalid` with a NoSuchToolError when the
 *   name is not among the tools offered).
 * @param tools the agent's tool names.
 * @returns the error text, or null when the call names one of the agent's tools.
 */
export function unknownToolError(call: { toolName: string; invalid?: boolean; error?: unknown }, tools: readonly string[]): string | null {
  const known = call.toolName === REPORT_IMPOSSIBLE || tools.includes(call.toolName);
  if (known && !NoSuchToolError.isInstance(call.error)) return null;
  const name = call.toolName.trim() || "(no name)";
  const list = tools.length > 0 ? `its tools are: ${tools.join(", ")}` : "it has no tools";
  return `${name} is not a tool of this agent; ${list}.`;
}

/** Marks an {@link unknownToolError} text. */
const NOT_A_TOOL = " is not a tool of this agent; ";

/**
 * What a retried step's agent is told when its previous try called a tool it does not have,
 * so the retry does not repeat the slip: "Your previous try of this step failed: read_fil is
 * not a tool of this agent; …". Undefined for a first try or another error.
 * @param step the step being tried (`tries` counts this try; `error` is the previous try's).
 */
export function unknownToolNote(step: { tries: number; error: string | null }): string | undefined {
  return step.tries > 1 && step.error?.includes(NOT_A_TOOL) ? `Your previous try of this step failed: ${step.error} Call only those tools, by their exact names.` : undefined;
}
