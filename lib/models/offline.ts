import type {
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Message,
  LanguageModelV4StreamPart,
  LanguageModelV4ToolResultOutput,
  LanguageModelV4Usage,
} from "@ai-sdk/provider";
import { extractivePoints } from "./extractive-summary";
import { plannerReply, type Reply, writeContent } from "./offline-planner";
import { chooseOtherTool, describeOtherTool, type ToolChoice } from "./offline-tools";
import { between, byteLength, contextBody, countBullets, detectRole, field, fileNames, messageChars, messageText, quote, summaryDocument, targetFile, unescapeAttr } from "./offline-text";

/**
 * The offline model: a deterministic `LanguageModelV4` that needs no network and no key.
 * It reads the role marker of the system prompt built by `./prompts.ts` and answers with
 * simple rules: the planner proposes file steps, an executor calls one tool then reports its
 * result, the finalizer recaps the steps. Besides the file rules, an executor recognises
 * "remember that X", "recall X", "fetch <url>", "run javascript: <code>" and the generic
 * "use <tool> with <JSON object>" (see chooseOtherTool); it only calls tools it is offered. Same prompt in, same output out (no randomness,
 * no clock), so runs and tests replay exactly (STYLE.md rule 13).
 */

const PROVIDER = "phylactery";
const MODEL_ID = "offline";

// ---------------------------------------------------------------------------------------
// Executor

interface ToolOutcome {
  error?: string;
  value: unknown;
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

/** Normalises a tool result, unwrapping a gateway `{ status, output }` envelope. */
function toolOutcome(output: LanguageModelV4ToolResultOutput): ToolOutcome {
  let value: unknown;
  switch (output.type) {
    case "text":
      value = parseMaybeJson(output.value);
      break;
    case "json":
      value = output.value;
      break;
    case "error-text":
      return { error: output.value, value: undefined };
    case "error-json":
      return { error: JSON.stringify(output.value), value: undefined };
    case "execution-denied":
      return { error: `it was not run (${output.reason ?? "execution denied"})`, value: undefined };
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
    if (typeof o.status === "string" && typeof o.output === "string") value = parseMaybeJson(o.output);
  }
  return { value };
}

const FILE_TOOLS = new Set(["list_files", "read_file", "write_file", "delete_file"]);

function describeResult(toolName: string, input: Record<string, unknown>, outcome: ToolOutcome): string {
  const path = String(input.path ?? field(outcome.value, "path") ?? ".");
  if (outcome.error !== undefined) {
    const subject = FILE_TOOLS.has(toolName) || input.path !== undefined ? ` on ${path}` : typeof input.url === "string" ? ` on ${input.url}` : "";
    return `${toolName}${subject} failed: ${outcome.error}`;
  }
  const v = outcome.value;
  const other = describeOtherTool(toolName, input, v);
  if (other !== undefined) return other;
  switch (toolName) {
    case "read_file": {
      const raw = field(v, "content", "text");
      const content = typeof v === "string" ? v : typeof raw === "string" ? raw : JSON.stringify(v);
      return `Read ${content.length} characters from ${path}:\n${quote(content)}`;
    }
    case "write_file": {
      const content = typeof input.content === "string" ? input.content : "";
      const bytes = Number(field(v, "bytes", "bytesWritten", "size") ?? byteLength(content));
      const points = content.startsWith("# Summary of") ? ` The summary has ${countBullets(content)} points.` : "";
      return `Wrote ${bytes} bytes to ${path}.${points}`;
    }
    case "delete_file":
      return `Deleted ${path}.`;
    case "list_files": {
      const list = Array.isArray(v) ? v : field(v, "files", "entries");
      if (Array.isArray(list)) {
        const names = list.map((e) => String(typeof e === "string" ? e : (field(e, "name", "path") ?? JSON.stringify(e))));
        return names.length === 0
          ? `${path} is empty.`
          : `${path} has ${names.length} entries:\n${names.map((n) => `- ${n}`).join("\n")}`;
      }
      return `Files in ${path}:\n${typeof v === "string" ? v : JSON.stringify(v)}`;
    }
    default:
      return `${toolName} returned: ${typeof v === "string" ? v : JSON.stringify(v)}`;
  }
}

function reportToolResults(prompt: LanguageModelV4Message[], last: LanguageModelV4Message & { role: "tool" }): string {
  const calls = new Map<string, Record<string, unknown>>();
  for (const m of prompt) {
    if (m.role !== "assistant") continue;
    for (const p of m.content) {
      if (p.type === "tool-call" && p.input && typeof p.input === "object") {
        calls.set(p.toolCallId, p.input as Record<string, unknown>);
      }
    }
  }
  return last.content
    .flatMap((p) =>
      p.type === "tool-result" ? [describeResult(p.toolName, calls.get(p.toolCallId) ?? {}, toolOutcome(p.output))] : [],
    )
    .join("\n\n");
}

/** The long-term facts the engine injected into the step prompt (`<fact>…</fact>` lines). */
function memoryFacts(user: string): string[] {
  return [...user.matchAll(/^<fact>([\s\S]*?)<\/fact>$/gm)].map((m) => (m[1] ?? "").trim()).filter(Boolean);
}

function parseContext(user: string): { task: string; result: string }[] {
  return [...user.matchAll(/<step-result task="([^"]*)">\n([\s\S]*?)\n<\/step-result>/g)].map((m) => ({
    task: unescapeAttr(m[1] ?? ""),
    result: m[2] ?? "",
  }));
}

/** Chooses the tool for a step, or `undefined` when the step is answered in text. */
function chooseTool(task: string, context: { task: string; result: string }[]): ToolChoice | undefined {
  const other = chooseOtherTool(task);
  if (other) return other;
  const files = fileNames(task);
  const lower = task.toLowerCase();
  const [first] = files;
  if (lower.startsWith("answer:")) return undefined;
  const given = /^write (\S+) with content:\s?([\s\S]*)$/i.exec(task);
  if (given?.[1]) return { toolName: "write_file", input: { path: given[1], content: given[2] ?? "" } };
  if (/\b(?:summari[sz]e|summary|condense)\b/.test(lower)) {
    const target = targetFile(task, files.slice(1));
    if (!target) return undefined;
    const sources = files.filter((f) => f !== target);
    const source = sources.length > 0 ? sources.join(" and ") : (fileNames(context.map((c) => c.task).join(" "))[0] ?? "the input");
    return { toolName: "write_file", input: { path: target, content: summaryDocument(source, context) } };
  }
  const second = files[1];
  if (/\bcopy\b/.test(lower) && first && second) {
    return { toolName: "write_file", input: { path: second, content: contextBody(context) } };
  }
  if (/\b(?:delete|remove)\b/.test(lower) && first) return { toolName: "delete_file", input: { path: first } };
  if (/\b(?:write|create|save)\b/.test(lower) && first) {
    return { toolName: "write_file", input: { path: first, content: writeContent(task) || contextBody(context) } };
  }
  if (/\blist\b|\bfiles in\b/.test(lower)) return { toolName: "list_files", input: { path: "." } };
  if (first) return { toolName: "read_file", input: { path: first } };
  return undefined;
}

function answerInText(task: string, context: { task: string; result: string }[], facts: string[] = []): string {
  if (facts.length > 0 && context.length === 0) {
    // What the agent remembers (SPEC.md 6): the facts injected for this step, as they are.
    return `From memory:\n${facts.map((f) => `- ${f}`).join("\n")}`;
  }
  const points = extractivePoints(contextBody(context));
  if (points.length > 0) {
    const source = fileNames(`${task} ${context.map((c) => c.task).join(" ")}`)[0] ?? "the earlier steps";
    return `Summary of ${source}:\n${points.map((p) => `- ${p}`).join("\n")}`;
  }
  const question = task.replace(/^answer:\s*/i, "");
  return `I am the offline model, so I can only work on files with tools and can't answer "${question}" myself. Try a file task such as "Summarize notes.md into summary.md", or configure a real model provider.`;
}

/** A reviewer's verdict on a written summary: structure and sources, from its text. */
function reviewText(file: string, content: string): string {
  const bullets = countBullets(content);
  const title = /^# (.+)$/m.exec(content)?.[1];
  const problems: string[] = [];
  if (!title) problems.push("it has no title");
  if (bullets === 0) problems.push("it has no bullet points");
  if (/\(nothing to summarize/.test(content)) problems.push("its sources were empty");
  const verdict = problems.length === 0 ? "Approved: it reads well and every point comes from the sources." : `Needs work: ${problems.join("; ")}.`;
  return `Review of ${file}: "${title ?? "untitled"}", ${bullets} points, ${content.length} characters. ${verdict}`;
}

function executorReply(options: LanguageModelV4CallOptions, system: string, user: string, tools: Set<string>): Reply {
  const last = options.prompt.at(-1);
  const task = (between(user, "<step-task>\n", "\n</step-task>") ?? user).trim();
  if (last?.role === "tool") {
    const review = /^review (\S+)$/i.exec(task);
    const result = last.content.find((p) => p.type === "tool-result");
    if (review?.[1] && result?.type === "tool-result") {
      const outcome = toolOutcome(result.output);
      const raw = field(outcome.value, "content");
      if (outcome.error === undefined && typeof raw === "string") return { kind: "text", text: reviewText(review[1], raw) };
    }
    return { kind: "text", text: reportToolResults(options.prompt, last) };
  }
  const context = parseContext(user);
  const choice = chooseTool(task, context);
  if (!choice) return { kind: "text", text: answerInText(task, context, memoryFacts(user)) };
  if (!tools.has(choice.toolName)) {
    const agent = /^You are (.+?) \(agent /m.exec(system)?.[1] ?? "this agent";
    return {
      kind: "text",
      text: `I can't do "${task}": it needs the ${choice.toolName} tool, which is not available to ${agent}.`,
    };
  }
  return { kind: "tool", toolCallId: `call_${options.prompt.length}`, ...choice };
}

// ---------------------------------------------------------------------------------------
// Finalizer and conversation

function finalizerReply(user: string): string {
  const task = (between(user, "<task>\n", "\n</task>") ?? "").trim();
  const note = between(user, "<note>\n", "\n</note>")?.trim();
  const steps = [...user.matchAll(/<step index="\d+" status="([^"]*)" task="([^"]*)">\n([\s\S]*?)\n<\/step>/g)].map(
    (m) => ({ status: unescapeAttr(m[1] ?? ""), task: unescapeAttr(m[2] ?? ""), result: m[3] ?? "" }),
  );
  const done = steps.filter((s) => /^(?:done|completed?|succe(?:ss|eded)|ok)$/i.test(s.status));
  const files = fileNames(task);
  const target = targetFile(task, files.slice(1));
  const wrote = target ? done.find((s) => s.result.includes(`bytes to ${target}`)) : undefined;
  const lines: string[] = [];
  if (wrote && files[0] && /\b(?:summari[sz]e|summary|condense)\b/i.test(task)) {
    const points = /(\d+) points?\b/.exec(wrote.result)?.[1];
    lines.push(`Summarized ${files[0]} into ${target}${points ? ` (${points} points)` : ""}.`);
  } else if (steps.length === 0) {
    lines.push(`Nothing was run for "${task}".`);
  } else {
    lines.push(`Completed ${done.length} of ${steps.length} steps for "${task}".`);
  }
  if (note) lines.push(`Not done: ${note.replace(/\.?$/, ".")} That tool was not run, so its changes were not made.`);
  for (const s of steps) {
    if (!done.includes(s)) lines.push(`Step "${s.task}" ended as ${s.status}.`);
  }
  const lastResult = done.at(-1)?.result.trim();
  return lastResult ? `${lines.join(" ")}\n\n${lastResult}` : lines.join(" ");
}

function conversationReply(user: string): string {
  const said = user.trim();
  const opener = /^(?:hi|hello|hey|good (?:morning|afternoon|evening))\b/i.test(said)
    ? "Hello!"
    : /\bthank/i.test(said)
      ? "You're welcome!"
      : "Thanks for your message.";
  return `${opener} I'm Phylactery's offline model: I don't chat freely, but I can plan and run file tasks with your agents. Try a task like "Summarize notes.md into summary.md".`;
}

// ---------------------------------------------------------------------------------------
// The model

function reply(options: LanguageModelV4CallOptions): Reply {
  const system = options.prompt.filter((m) => m.role === "system").map(messageText).join("\n");
  const users = options.prompt.filter((m) => m.role === "user").map(messageText);
  const tools = new Set(
    options.toolChoice?.type === "none"
      ? []
      : (options.tools ?? []).filter((t) => t.type === "function").map((t) => t.name),
  );
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

/**
 * Creates the deterministic offline model (provider "phylactery", model id "offline").
 * The role comes from the `[phylactery:*]` marker of the system prompt; without a marker it
 * answers like the conversation role. Only tools offered in `options.tools` are called.
 */
export function createOfflineModel(): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    provider: PROVIDER,
    modelId: MODEL_ID,
    supportedUrls: {},
    async doGenerate(options) {
      const out = reply(options);
      const content: LanguageModelV4Content[] =
        out.kind === "text"
          ? [{ type: "text", text: out.text }]
          : [{ type: "tool-call", toolCallId: out.toolCallId, toolName: out.toolName, input: JSON.stringify(out.input) }];
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
      const stream = new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const part of parts) controller.enqueue(part);
          controller.close();
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
