import type { LanguageModelV4Message, LanguageModelV4ToolResultOutput } from "@ai-sdk/provider";
import { byteLength, countBullets, field, quote } from "./offline-text";
import { describeOtherTool } from "./offline-tools";

/**
 * How the offline executor reads the tool results in its conversation: what each call of
 * the step returned, whether it failed or was refused (an engine `ERROR: …` text, a policy
 * block, a refused or denied call), and the step result it reports in words. A failure is
 * never reported as content.
 */

/** A tool result, normalised. */
export interface ToolOutcome {
  /** Why the call failed or did not run; undefined when it succeeded. */
  error?: string;
  /** True when the call did not run at all (blocked, refused, denied). */
  refused?: boolean;
  value: unknown;
}

/** One tool call of the current step with its result. */
export interface StepCall {
  toolName: string;
  input: Record<string, unknown>;
  outcome: ToolOutcome;
}

function parseMaybeJson(text: string): unknown {
  const t = text.trim();
  if (!/^[[{]/.test(t)) return text;
  try {
    return JSON.parse(t);
  } catch {
    return text;
  }
}

/** Texts the engine puts in place of a result when the call failed or did not run. */
function failureOf(text: string): { error: string; refused: boolean } | undefined {
  const t = text.trim();
  const error = /^ERROR:\s*([\s\S]*)$/.exec(t)?.[1];
  if (error !== undefined) return { error: error.trim() || "unknown error", refused: false };
  if (/^BLOCKED\b/.test(t) || /; the call was refused\.$/.test(t) || /^(?:Integrity error|The arguments are not valid JSON)\b/.test(t)) return { error: t, refused: true };
  return undefined;
}

/**
 * Normalises a tool result: unwraps a gateway `{ status, output }` envelope, parses JSON
 * text, and turns the engine's failure texts (`ERROR: …`, `BLOCKED by policy …`, "… the
 * call was refused.") and AI SDK error / denied outputs into `error`.
 */
export function toolOutcome(output: LanguageModelV4ToolResultOutput): ToolOutcome {
  let value: unknown;
  switch (output.type) {
    case "text": {
      const failed = failureOf(output.value);
      if (failed) return { error: failed.error, refused: failed.refused, value: undefined };
      value = parseMaybeJson(output.value);
      break;
    }
    case "json":
      value = output.value;
      break;
    case "error-text":
      return { error: output.value, value: undefined };
    case "error-json":
      return { error: JSON.stringify(output.value), value: undefined };
    case "execution-denied":
      return { error: output.reason ?? "execution denied", refused: true, value: undefined };
    case "content":
      value = output.value.map((p) => (p.type === "text" ? p.text : "")).join("");
      break;
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    const err = o.error;
    if (o.status === "error" || err) {
      const message = typeof err === "string" ? err : (err as { message?: unknown } | undefined)?.message;
      return { error: String(message ?? o.output ?? o.message ?? "unknown error"), value: undefined };
    }
    if (o.status === "blocked") return { error: String(o.output ?? o.reason ?? "blocked by policy"), refused: true, value: undefined };
    if (typeof o.status === "string" && typeof o.output === "string") value = parseMaybeJson(o.output);
  }
  return { value };
}

/** The tool calls of this step (the assistant's calls and their results), in order. */
export function stepCalls(prompt: LanguageModelV4Message[]): StepCall[] {
  const inputs = new Map<string, { toolName: string; input: Record<string, unknown> }>();
  const calls: StepCall[] = [];
  for (const m of prompt) {
    if (m.role === "assistant") {
      for (const p of m.content) {
        if (p.type === "tool-call") inputs.set(p.toolCallId, { toolName: p.toolName, input: p.input && typeof p.input === "object" ? (p.input as Record<string, unknown>) : {} });
      }
    } else if (m.role === "tool") {
      for (const p of m.content) {
        if (p.type !== "tool-result") continue;
        const call = inputs.get(p.toolCallId);
        calls.push({ toolName: p.toolName, input: call?.input ?? {}, outcome: toolOutcome(p.output) });
      }
    }
  }
  return calls;
}

const FILE_TOOLS = new Set(["list_files", "read_file", "write_file", "delete_file"]);

/** The text of a read_file result (its `content`), or undefined when it has none. */
export function readContent(outcome: ToolOutcome): string | undefined {
  if (outcome.error !== undefined) return undefined;
  const v = outcome.value;
  const raw = field(v, "content", "text");
  return typeof v === "string" ? v : typeof raw === "string" ? raw : undefined;
}

/** The entries of a list_files result, directories ending with "/", or undefined. */
export function listedNames(outcome: ToolOutcome): string[] | undefined {
  const v = outcome.value;
  const list = Array.isArray(v) ? v : field(v, "files", "entries");
  if (!Array.isArray(list)) return undefined;
  return list.map((e) => {
    if (typeof e === "string") return e;
    const name = String(field(e, "name", "path") ?? JSON.stringify(e));
    return field(e, "type") === "dir" && !name.endsWith("/") ? `${name}/` : name;
  });
}

/**
 * A tool call's result in words, as the step result: "Read N characters from x:" and the
 * quoted text, "Wrote N bytes to x." (with the number of points of a summary, and the
 * sources it cites), "Deleted x.", "x has N entries:" and the list; a failure as "<tool> on
 * <x> failed: <why>" and a call that did not run as "<tool> on <x> was not run: <why>".
 */
export function describeResult(call: StepCall): string {
  const { toolName, input, outcome } = call;
  const path = String(input.path ?? field(outcome.value, "path") ?? ".");
  if (outcome.error !== undefined) {
    const subject = FILE_TOOLS.has(toolName) || input.path !== undefined ? ` on ${path}` : typeof input.url === "string" ? ` on ${input.url}` : "";
    return `${toolName}${subject} ${outcome.refused ? "was not run" : "failed"}: ${outcome.error}`;
  }
  const v = outcome.value;
  const other = describeOtherTool(toolName, input, v);
  if (other !== undefined) return other;
  switch (toolName) {
    case "read_file": {
      const content = readContent(outcome) ?? JSON.stringify(v);
      return `Read ${content.length} characters from ${path}:\n${quote(content)}`;
    }
    case "write_file": {
      const content = typeof input.content === "string" ? input.content : "";
      const bytes = Number(field(v, "bytes", "bytesWritten", "size") ?? byteLength(content));
      const cited = [...new Set([...content.matchAll(/\(source: ([^)]+)\)/g)].map((m) => m[1] ?? ""))];
      const from = cited.length > 1 ? ` from ${cited.length} sources (${cited.join(", ")})` : "";
      const points = content.startsWith("# Summary of")
        ? ` The summary has ${countBullets(content)} points${from}.`
        : content.startsWith("# TODO checklist")
          ? ` The checklist has ${countBullets(content)} items.`
          : "";
      return `Wrote ${bytes} bytes to ${path}.${points}`;
    }
    case "delete_file":
      return `Deleted ${path}.`;
    case "list_files": {
      const names = listedNames(outcome);
      if (names) return names.length === 0 ? `${path} is empty.` : `${path} has ${names.length} entries:\n${names.map((n) => `- ${n}`).join("\n")}`;
      return `Files in ${path}:\n${typeof v === "string" ? v : JSON.stringify(v)}`;
    }
    default:
      return `${toolName} returned: ${typeof v === "string" ? v : JSON.stringify(v)}`;
  }
}
