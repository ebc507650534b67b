import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { reviewDraft } from "./brief-review";
import { type Reply, writeContent } from "./offline-planner";
import { between, fileNames, taskFileNames, unescapeAttr } from "./offline-text";
import { answerQuestion, isQuestion, outputFiles, pointsAnswer, requestOf } from "./offline-request";
import { REPORT_IMPOSSIBLE } from "./prompts";
import { focusMatcher } from "./structured-summary";
import { keptSectionsOf } from "./summary-points";
import { chooseOtherTool, type ToolChoice } from "./offline-tools";
import { type ContextEntry, feedbackOf, isFailureText, shapingOf, sourceBody, sourcesOf, type SourceText, unreadSourcesOf } from "./step-context";
import { briefOf, joinNames, summaryOf } from "./structured-summary";
import { checklistOf, parseTodoReport, TEXT_FILE, type TodoLine, todoReport, todosOf } from "./todo-list";
import { describeResult, listedNames, readContent, type StepCall, stepCalls } from "./tool-outcome";

/**
 * The offline model as a step's agent (the executor role). It works only from what its
 * prompt holds: the step's task, the results of earlier steps and the tool results of this
 * step. Most steps are one tool call and a report of its result; a review reads the draft
 * (and, when no earlier step gave them, the sources it cites) before its verdict; collecting
 * to-dos reads the listed files one by one. When its last tool call failed or was refused it
 * says so plainly and stops: a failure is never passed on as content, and it never writes a
 * file from failed results.
 */

/**
 * Most files (and folders) one to-do collection step reads (and lists). Each call is one
 * Supervisor iteration, and a flow's default limit is 50 for the whole run.
 */
export const TODO_MAX_FILES = 25;

/** The long-term facts the engine injected into the step prompt (`<fact>…</fact>` lines). */
function memoryFacts(user: string): string[] {
  return [...user.matchAll(/^<fact>([\s\S]*?)<\/fact>$/gm)].map((m) => (m[1] ?? "").trim()).filter(Boolean);
}

function parseContext(user: string): ContextEntry[] {
  return [...user.matchAll(/<step-result task="([^"]*)">\n([\s\S]*?)\n<\/step-result>/g)].map((m) => ({
    task: unescapeAttr(m[1] ?? ""),
    result: m[2] ?? "",
  }));
}

/** Why an earlier step gave nothing to build on: the failures among the results. */
function failuresOf(context: ContextEntry[]): string {
  const failed = context.filter((c) => isFailureText(c.result)).map((c) => c.result.trim().split("\n")[0]);
  return failed.length > 0 ? ` (${failed.join("; ")})` : "";
}

/** A summary or a brief of the sources, shaped by the Human-input answers and the Reviewer's feedback. */
function summaryContent(task: string, target: string, sources: SourceText[], context: ContextEntry[]): string {
  const shaping = shapingOf(context);
  const feedback = feedbackOf(context);
  const brief = sources.length > 1 || /\bbrief\b/i.test(`${task} ${target}`);
  const unread = unreadSourcesOf(context);
  const [only] = sources;
  return brief || !only ? briefOf(sources, shaping, feedback?.unsupported, unread) : summaryOf(only, shaping, unread);
}

/** Chooses the tool call for a single-call step, or a text reply when it needs none or cannot be done. */
function chooseTool(task: string, context: ContextEntry[], tools: Set<string>): ToolChoice | { text: string } | undefined {
  const other = chooseOtherTool(task, tools);
  if (other) return other;
  const files = taskFileNames(task);
  const lower = task.toLowerCase();
  const [first] = files;
  if (lower.startsWith("answer:")) return undefined;
  const given = /^write (\S+) with content:\s?([\s\S]*)$/i.exec(task);
  if (given?.[1]) return { toolName: "write_file", input: { path: given[1], content: given[2] ?? "" } };
  const extract = /^write the (.+?) of (.+) to (\S+)$/i.exec(task);
  if (extract?.[1] && extract[3]) {
    const sources = sourcesOf(context);
    if (sources.length === 0) return { text: `I can't write ${extract[3]}: none of the earlier steps returned text${failuresOf(context)}.` };
    return { toolName: "write_file", input: { path: extract[3], content: extractContent(extract[1], sources) } };
  }
  if (/\bchecklist\b/.test(lower) && first) {
    const report = context.map((c) => parseTodoReport(c.result)).find((r) => r !== undefined);
    if (!report) return { text: `I can't write ${first}: no earlier step collected the TODO lines${failuresOf(context)}.` };
    return { toolName: "write_file", input: { path: first, content: checklistOf(report.files, report.todos) } };
  }
  if (/\b(?:summari[sz]e|summary|condense|brief)\b/.test(lower)) {
    const target = outputFiles(task, files).at(-1);
    if (!target) return undefined;
    const sources = sourcesOf(context);
    if (sources.length === 0) return { text: `I can't write ${target}: none of the earlier steps returned text to summarize${failuresOf(context)}.` };
    return { toolName: "write_file", input: { path: target, content: summaryContent(task, target, sources, context) } };
  }
  const second = files[1];
  if (/\bcopy\b/.test(lower) && first && second) {
    const body = sourceBody(context);
    if (!body) return { text: `I can't write ${second}: no earlier step read ${first}${failuresOf(context)}.` };
    return { toolName: "write_file", input: { path: second, content: body } };
  }
  if (/\b(?:delete|remove)\b/.test(lower) && first) return { toolName: "delete_file", input: { path: first } };
  if (/\b(?:write|create|save)\b/.test(lower) && first) {
    const into = outputFiles(task, files)[0] ?? first;
    const content = writeContent(task) || sourceBody(context);
    if (!content) return { text: `I can't write ${into}: the task gives no content and no earlier step read any${failuresOf(context)}.` };
    return { toolName: "write_file", input: { path: into, content } };
  }
  if (/\blist\b|\bfiles in\b/.test(lower)) return { toolName: "list_files", input: { path: "." } };
  if (first) return { toolName: "read_file", input: { path: first } };
  return undefined;
}

/**
 * The points of the sources of the kinds a task names ("action items", "decisions"), as a
 * list with a title; the whole summary when none matches.
 */
function extractContent(kinds: string, sources: SourceText[]): string {
  const { matches } = focusMatcher(kinds);
  const many = sources.length > 1;
  const lines = sources.flatMap((source) =>
    keptSectionsOf(source.text)
      .sections.flatMap((s) => s.points)
      .filter(matches)
      .map((p) => `- ${p.text}${many ? ` (source: ${source.file})` : ""}`),
  );
  if (lines.length === 0) return summaryContent(kinds, "", sources, []);
  const title = kinds.charAt(0).toUpperCase() + kinds.slice(1);
  return `# ${title} of ${sources.map((s) => s.file).join(" and ")}\n\n${[...new Set(lines)].join("\n")}\n`;
}

function answerInText(task: string, context: ContextEntry[], facts: string[] = []): string {
  const sources = sourcesOf(context);
  if (facts.length > 0 && sources.length === 0) {
    // What the agent remembers (docs/architecture.md#memory): the facts injected for this step, as they are.
    return `From memory:\n${facts.map((f) => `- ${f}`).join("\n")}`;
  }
  const question = task.replace(/^answer(?: from the listed files)?:\s*/i, "");
  if (sources.length > 0 && isQuestion(question)) return answerQuestion(question, sources);
  const request = requestOf(task);
  if (sources.length > 0 && (request.count || request.audience) && !shapingOf(context).focus) {
    return pointsAnswer(sources, { ...request, ...(shapingOf(context).audience && !request.audience ? { audience: shapingOf(context).audience } : {}) });
  }
  const [only] = sources;
  if (only) return (sources.length > 1 ? briefOf(sources, shapingOf(context)) : summaryOf(only, shapingOf(context))).trim();
  const failed = failuresOf(context);
  if (failed) return `I can't answer "${question}": the earlier steps failed${failed}.`;
  return `I am the offline model, so I can only work on files with tools and can't answer "${question}" myself. Try a file task such as "Summarize notes.md into summary.md", or configure a real model provider.`;
}

// ---------------------------------------------------------------------------------------
// Multi-call steps

type Next = { call: ToolChoice } | { text: string };

/** A review: read the draft, then (when no earlier step read them) the files it cites; then the verdict. */
function reviewStep(draft: string, calls: StepCall[], context: ContextEntry[], tools: Set<string>): Next {
  const reads = calls.filter((c) => c.toolName === "read_file");
  const draftRead = reads.find((c) => c.input.path === draft);
  if (!draftRead) {
    if (!tools.has("read_file")) return { text: `I can't review ${draft}: it needs the read_file tool.` };
    return { call: { toolName: "read_file", input: { path: draft } } };
  }
  const text = readContent(draftRead.outcome);
  if (text === undefined) return { text: describeResult(draftRead) };
  const given = sourcesOf(context).filter((s) => s.file !== draft);
  const own = reads.flatMap((c) => {
    const content = c.input.path !== draft ? readContent(c.outcome) : undefined;
    return content !== undefined ? [{ file: String(c.input.path), text: content }] : [];
  });
  if (given.length === 0 && tools.has("read_file")) {
    const tried = new Set(reads.map((c) => String(c.input.path)));
    const next = fileNames(text).find((f) => f !== draft && !tried.has(f));
    if (next) return { call: { toolName: "read_file", input: { path: next } } };
  }
  return { text: reviewDraft(draft, text, [...given, ...own], unreadSourcesOf(context)).text };
}

/** The files and folders the earlier steps and this step listed, with their paths. */
function listedPaths(context: ContextEntry[], calls: StepCall[]): string[] {
  const out: string[] = [];
  for (const c of context) {
    const m = /^(.+?) has \d+ entries:\n([\s\S]*)$/.exec(c.result.trim());
    if (!m?.[1] || !m[2]) continue;
    const dir = m[1] === "." ? "" : `${m[1].replace(/\/$/, "")}/`;
    out.push(...[...m[2].matchAll(/^- (.+)$/gm)].map((e) => `${dir}${e[1] ?? ""}`));
  }
  for (const c of calls.filter((x) => x.toolName === "list_files")) {
    const base = String(c.input.path ?? ".");
    const dir = base === "." ? "" : `${base.replace(/\/$/, "")}/`;
    out.push(...(listedNames(c.outcome) ?? []).map((n) => `${dir}${n}`));
  }
  return [...new Set(out)];
}

/** Collecting to-dos: from the files earlier steps read, else by reading the listed files one by one. */
function collectStep(task: string, calls: StepCall[], context: ContextEntry[], tools: Set<string>): Next {
  const except = new Set(taskFileNames(/\bexcept\b([\s\S]*)$/i.exec(task)?.[1] ?? ""));
  const sources = sourcesOf(context).filter((s) => !except.has(s.file));
  const todos: TodoLine[] = sources.flatMap((s) => todosOf(s.file, s.text));
  const read = sources.map((s) => s.file);
  for (const c of calls.filter((x) => x.toolName === "read_file")) {
    const content = readContent(c.outcome);
    if (content === undefined) continue;
    read.push(String(c.input.path));
    todos.push(...todosOf(String(c.input.path), content));
  }
  if (sources.length === 0) {
    const listed = listedPaths(context, calls);
    const listedDirs = new Set(calls.filter((c) => c.toolName === "list_files").map((c) => String(c.input.path ?? ".").replace(/\/$/, "")));
    const dir = listed.find((p) => p.endsWith("/") && !listedDirs.has(p.replace(/\/$/, "")));
    const room = calls.length < TODO_MAX_FILES;
    if (dir && room && tools.has("list_files")) return { call: { toolName: "list_files", input: { path: dir.replace(/\/$/, "") } } };
    const tried = new Set(calls.filter((c) => c.toolName === "read_file").map((c) => String(c.input.path)));
    const files = listed.filter((p) => !p.endsWith("/") && TEXT_FILE.test(p) && !except.has(p) && !except.has(p.split("/").at(-1) ?? ""));
    const next = files.find((f) => !tried.has(f));
    if (next && room && tools.has("read_file")) return { call: { toolName: "read_file", input: { path: next } } };
    if (listed.length === 0 && calls.length === 0) return { text: `I can't collect the TODO lines: no earlier step listed or read any file${failuresOf(context)}.` };
    const left = files.filter((f) => !tried.has(f)).length;
    if (left > 0) return { text: `${todoReport(read, todos)}\n\n${left} more files were not read (a step reads at most ${TODO_MAX_FILES}).` };
  }
  return { text: todoReport(read, todos) };
}

/**
 * Answering a question from the listed files: reads each listed text file (at most
 * {@link TODO_MAX_FILES}), then answers from them with the source.
 */
function answerStep(task: string, calls: StepCall[], context: ContextEntry[], tools: Set<string>): Next {
  const listed = listedPaths(context, calls).filter((p) => !p.endsWith("/") && TEXT_FILE.test(p));
  const tried = new Set(calls.filter((c) => c.toolName === "read_file").map((c) => String(c.input.path)));
  const next = listed.find((f) => !tried.has(f));
  if (next && tried.size < TODO_MAX_FILES && tools.has("read_file")) return { call: { toolName: "read_file", input: { path: next } } };
  const read: ContextEntry[] = calls.flatMap((c) => {
    const content = c.toolName === "read_file" ? readContent(c.outcome) : undefined;
    return content !== undefined ? [{ task: `Read ${String(c.input.path)}`, result: `Read ${content.length} characters from ${String(c.input.path)}:\n${content}` }] : [];
  });
  return { text: answerInText(task, [...context, ...read]) };
}

// ---------------------------------------------------------------------------------------

/** The executor's reply to one model call of a step: a tool call or the step's result in text. */
export function executorReply(options: LanguageModelV4CallOptions, system: string, user: string, tools: Set<string>): Reply {
  const task = (between(user, "<step-task>\n", "\n</step-task>") ?? user).trim();
  const context = parseContext(user);
  const calls = stepCalls(options.prompt);
  const lastIsTool = options.prompt.at(-1)?.role === "tool";
  const last = lastIsTool ? calls.at(-1) : undefined;
  // A failed or refused call ends the step: say what happened, nothing else; an approver
  // who asked for the text in the chat instead of the write gets it, built from the sources.
  if (last && last.outcome.error !== undefined) {
    const said = describeResult(last);
    const sources = sourcesOf(context);
    const inChat = last.toolName === "write_file" && /\bapprover\b/i.test(last.outcome.error) && /\b(?:in the chat|here|instead|as text|in text)\b/i.test(last.outcome.error);
    if (inChat && sources.length > 0) return { kind: "text", text: `${said}\n\nAs asked, here it is instead:\n\n${answerInText(task, context).trim()}` };
    return { kind: "text", text: said };
  }
  // What this agent cannot do is reported through the declared tool, so the step is not done
  // (never a green step whose text says it could not).
  const impossible = (reason: string): Reply =>
    tools.has(REPORT_IMPOSSIBLE) ? { kind: "tool", toolCallId: `call_${options.prompt.length}`, toolName: REPORT_IMPOSSIBLE, input: { reason } } : { kind: "text", text: reason };
  const toolCall = (choice: ToolChoice): Reply => {
    if (!tools.has(choice.toolName)) {
      const agent = /^You are (.+?) \(agent /m.exec(system)?.[1] ?? "this agent";
      return impossible(`I can't do "${task}": it needs the ${choice.toolName} tool, which is not available to ${agent}.`);
    }
    return { kind: "tool", toolCallId: `call_${options.prompt.length}`, ...choice };
  };
  const review = /^review\b/i.test(task) ? taskFileNames(task)[0] : undefined;
  const collect = /^collect the (?:todo|to-do|fixme)/i.test(task);
  const findAnswer = /^answer from the listed files:/i.test(task);
  if (review || collect || findAnswer) {
    const next = review ? reviewStep(review, calls, context, tools) : collect ? collectStep(task, calls, context, tools) : answerStep(task, calls, context, tools);
    return "call" in next ? toolCall(next.call) : { kind: "text", text: next.text };
  }
  if (last) {
    const reports = [describeResult(last)];
    const feedback = feedbackOf(context);
    if (feedback && last.toolName === "write_file") reports.push(revisionNote(feedback, String(last.input.content ?? "")));
    return { kind: "text", text: reports.join("\n\n") };
  }
  const choice = chooseTool(task, context, tools);
  if (!choice) {
    const text = answerInText(task, context, memoryFacts(user));
    return /^I am the offline model\b/.test(text) ? impossible(text) : { kind: "text", text };
  }
  if ("text" in choice) return { kind: "text", text: choice.text };
  return toolCall(choice);
}

/** What a rewrite after a review changed, for the step's result. */
function revisionNote(feedback: { unsupported: string[]; unused: string[] }, content: string): string {
  const now = feedback.unused.filter((f) => content.includes(`(source: ${f})`));
  const parts: string[] = [];
  if (now.length > 0) parts.push(`it now uses ${joinNames(now)}`);
  if (feedback.unsupported.length > 0) parts.push(`${feedback.unsupported.length} unsupported point${feedback.unsupported.length === 1 ? " was" : "s were"} left out`);
  const missing = feedback.unused.filter((f) => !now.includes(f));
  if (missing.length > 0) parts.push(`${joinNames(missing)} could not be used (no earlier step read ${missing.length === 1 ? "it" : "them"})`);
  return `Revised after the review: ${parts.length > 0 ? parts.join("; ") : "rewritten from the sources"}.`;
}
