import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4FinishReason, LanguageModelV4StreamPart, LanguageModelV4Usage } from "@ai-sdk/provider";
import { env } from "../env";
import { executorReply } from "./offline-executor";
import { plannerReply, type Reply } from "./offline-planner";
import { isQuestion, outputFiles } from "./offline-request";
import { between, detectRole, taskFileNames, messageChars, messageText, unescapeAttr } from "./offline-text";
import { isFailureText } from "./step-context";

/**
 * The offline model: a deterministic `LanguageModelV4` that needs no network and no key.
 * It reads the role marker of the system prompt built by `./prompts.ts` and answers with
 * rules: the planner turns the task into steps (./offline-planner.ts), an executor calls
 * tools and reports what they returned (./offline-executor.ts: summaries that keep the
 * source's shape, briefs that cite their sources, reviews against the sources, to-do
 * checklists), the finalizer recaps the steps. It only calls tools it is offered, and its
 * answers are built only from real tool results. Same prompt in, same output out (no
 * randomness, no clock), so runs and tests replay exactly.
 */

const PROVIDER = "phylactery";
const MODEL_ID = "offline";

// ---------------------------------------------------------------------------------------
// Finalizer and conversation

function finalizerReply(user: string): string {
  const task = (between(user, "<task>\n", "\n</task>") ?? "").trim();
  const note = between(user, "<note>\n", "\n</note>")?.trim();
  // The engine's note that some steps were not done (its report lists them): never "Done".
  const partly = note?.startsWith("Not everything was done:") ?? false;
  const steps = [...user.matchAll(/<step index="\d+" status="([^"]*)" task="([^"]*)">\n([\s\S]*?)\n<\/step>/g)].map((m) => ({
    status: unescapeAttr(m[1] ?? ""),
    task: unescapeAttr(m[2] ?? ""),
    result: m[3] ?? "",
  }));
  // A step whose result is a failure ("read_file on x failed: …") did not do its work, whatever its status.
  const done = steps.filter((s) => /^(?:done|completed?|succe(?:ss|eded)|ok)$/i.test(s.status) && !isFailureText(s.result));
  const files = taskFileNames(task);
  const target = outputFiles(task, files).at(-1);
  const wrote = target ? done.find((s) => s.result.includes(`bytes to ${target}`)) : undefined;
  const lines: string[] = [];
  if (wrote && files[0] && /\b(?:summari[sz]e|summary|condense)\b/i.test(task)) {
    const points = /(\d+) points?\b/.exec(wrote.result)?.[1];
    lines.push(`Summarized ${files[0]} into ${target}${points ? ` (${points} points)` : ""}.`);
  } else if (steps.length === 0) {
    lines.push(`Nothing was run for "${task}".`);
  } else if (done.length > 0) {
    lines.push(`${partly ? "Partly done" : "Done"}: ${done.map((s) => `${s.task.replace(/\.$/, "")} (${firstLine(s.result)})`).join("; ")}.`);
  }
  if (note && !partly) lines.push(`Not done: ${note.replace(/\.?$/, ".")} That tool was not run, so its changes were not made.`);
  for (const s of steps) {
    if (done.includes(s)) continue;
    const why = s.result.trim().split("\n")[0]?.replace(/\.$/, "");
    lines.push(
      isFailureText(s.result) || (why && !/^(?:done|completed?)$/i.test(s.status))
        ? `Step "${s.task}" ended as ${isFailureText(s.result) ? "failed" : s.status}: ${why}.`
        : `Step "${s.task}" ended as ${s.status}.`,
    );
  }
  // The content itself only when the user asked to see it (a read or a question); otherwise
  // the answer names what was done and does not paste a file the user did not ask for.
  const lastResult = done.at(-1)?.result.trim();
  // A question, or a summary with no file to write: the answer is the last step's result
  // itself (the date with its source, the bullets asked for), shown, not recapped.
  const answered = lastResult && !REPORT_LINE.test(lastResult) && (isQuestion(task) || (/\b(?:summari[sz]e|summary|condense|brief|résume|resume)\b/i.test(task) && !target));
  if (answered) return lastResult;
  const wantsContent = /^\s*(?:read|show|print|display|open|list|find|what|which|who|when|where|how)\b/i.test(task);
  const quoted = lastResult?.replace(/^\.\s+(has|is)\b/, "The workspace $1");
  return quoted && wantsContent ? `${lines.join(" ")}\n\n${quoted.slice(0, QUOTE_CHARS)}` : lines.join(" ");
}

/** The most of a result the final answer quotes, chars. */
const QUOTE_CHARS = 4000;

/** A step result that reports a tool call ("Read N characters from x:"), not an answer. */
const REPORT_LINE = /^(?:Read \d+ characters from |Wrote \d+ bytes to |Deleted |\S+ has \d+ entries|\S+ is empty\.)/;

/**
 * A result's first line, cut to 120 chars, for a one-line account of a step: a colon that
 * introduces the quoted content is dropped, and the workspace root "." is named.
 */
function firstLine(result: string): string {
  const line = (result.trim().split("\n")[0]?.trim() ?? "").replace(/^\.\s+(has|is)\b/, "the workspace $1").replace(/:$/, "");
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}

function conversationReply(user: string): string {
  const said = user.trim();
  const opener = /^(?:hi|hello|hey|good (?:morning|afternoon|evening))\b/i.test(said) ? "Hello!" : /\bthank/i.test(said) ? "You're welcome!" : "Thanks for your message.";
  return `${opener} I'm Phylactery's offline model: I don't chat freely, but I can plan and run file tasks with your agents. Try a task like "Summarize notes.md into summary.md".`;
}

// ---------------------------------------------------------------------------------------
// The model

function reply(options: LanguageModelV4CallOptions): Reply {
  const system = options.prompt
    .filter((m) => m.role === "system")
    .map(messageText)
    .join("\n");
  const users = options.prompt.filter((m) => m.role === "user").map(messageText);
  const tools = new Set(options.toolChoice?.type === "none" ? [] : (options.tools ?? []).filter((t) => t.type === "function").map((t) => t.name));
  switch (detectRole(system)) {
    case "planner":
      return plannerReply(options, system, users.at(-1) ?? "", tools);
    case "executor":
      return executorReply(options, system, users[0] ?? "", tools);
    case "finalizer":
      return { kind: "text", text: finalizerReply(users.at(-1) ?? "") };
    default:
      return { kind: "text", text: conversationReply(users.at(-1) ?? "") };
  }
}

function usageOf(options: LanguageModelV4CallOptions, out: Reply): LanguageModelV4Usage {
  const inputChars = options.prompt.reduce((n, m) => n + messageChars(m), 0);
  const outputChars = out.kind === "text" ? out.text.length : JSON.stringify(out.input).length;
  const input = Math.ceil(inputChars / 4);
  const output = Math.ceil(outputChars / 4);
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: out.kind === "text" ? output : 0, reasoning: undefined },
  };
}

function finishOf(out: Reply): LanguageModelV4FinishReason {
  return out.kind === "tool" ? { unified: "tool-calls", raw: "tool_calls" } : { unified: "stop", raw: "stop" };
}

/** Splits text into deterministic stream deltas (a word and its trailing space each). */
function chunks(text: string, pattern: RegExp): string[] {
  return text.match(pattern) ?? [];
}

function streamParts(out: Reply, usage: LanguageModelV4Usage): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (out.kind === "text") {
    parts.push({ type: "text-start", id: "text_0" });
    for (const delta of chunks(out.text, /\s*\S+\s*|\s+/g)) parts.push({ type: "text-delta", id: "text_0", delta });
    parts.push({ type: "text-end", id: "text_0" });
  } else {
    const json = JSON.stringify(out.input);
    parts.push({ type: "tool-input-start", id: out.toolCallId, toolName: out.toolName });
    for (const delta of chunks(json, /[\s\S]{1,24}/g)) parts.push({ type: "tool-input-delta", id: out.toolCallId, delta });
    parts.push({ type: "tool-input-end", id: out.toolCallId });
    parts.push({ type: "tool-call", toolCallId: out.toolCallId, toolName: out.toolName, input: json });
  }
  parts.push({ type: "finish", usage, finishReason: finishOf(out) });
  return parts;
}

/** The most one streamed answer's pauses add up to, in word pauses (500 ms at the default 10 ms). */
const MAX_STREAM_PAUSES = 50;

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Options of {@link createOfflineModel}. */
export interface OfflineModelOptions {
  /**
   * Pause between two streamed words, ms (default: OFFLINE_STREAM_WORD_MS, 10); the pauses
   * of one answer add up to at most 50 of them (a long answer's words come faster). Only the
   * timing changes, never the words.
   */
  wordMs?: number;
}

/**
 * Creates the deterministic offline model (provider "phylactery", model id "offline").
 * The role comes from the `[phylactery:*]` marker of the system prompt; without a marker it
 * answers like the conversation role. Only tools offered in `options.tools` are called.
 * `streamText` gets the text word by word (docs/runs.md "Streaming"), with a short pause
 * between words, and tool calls whole; an aborted call's stream ends with the abort reason
 * as its error, at once.
 */
export function createOfflineModel(opts: OfflineModelOptions = {}): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: PROVIDER,
    modelId: MODEL_ID,
    supportedUrls: {},
    async doGenerate(options) {
      const out = reply(options);
      const content: LanguageModelV4Content[] =
        out.kind === "text" ? [{ type: "text", text: out.text }] : [{ type: "tool-call", toolCallId: out.toolCallId, toolName: out.toolName, input: JSON.stringify(out.input) }];
      return {
        content,
        finishReason: finishOf(out),
        usage: usageOf(options, out),
        response: { id: `offline-${options.prompt.length}`, modelId: MODEL_ID },
        warnings: [],
      };
    },
    async doStream(options) {
      const out = reply(options);
      const parts = streamParts(out, usageOf(options, out));
      const words = parts.filter((p) => p.type === "text-delta").length;
      const wordMs = opts.wordMs ?? env().OFFLINE_STREAM_WORD_MS;
      const ms = words > 1 ? Math.min(wordMs, Math.floor((MAX_STREAM_PAUSES * wordMs) / (words - 1))) : 0;
      const signal = options.abortSignal;
      let next = 0;
      let wrote = false;
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        async pull(controller) {
          const part = parts[next++];
          if (part?.type === "text-delta" && wrote && ms > 0) await pause(ms, signal);
          // The caller gave up (the run was cancelled): the stream stops here.
          if (signal?.aborted) return controller.error(signal.reason ?? new Error("aborted"));
          if (!part) return controller.close();
          if (part.type === "text-delta") wrote = true;
          controller.enqueue(part);
        },
      });
      return { stream };
    },
  };
}

/** True when `model` is the offline model (so callers can skip retries, cost and keys). */
export function isOfflineModel(model: unknown): boolean {
  if (!model || typeof model !== "object") return false;
  const m = model as { provider?: unknown; modelId?: unknown };
  return m.provider === PROVIDER && m.modelId === MODEL_ID;
}
