import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { between, escapeRe, fileNames, taskFileNames } from "./offline-text";
import { isQuestion, type Missing, missingCapabilities, outputFiles, requestOf, withoutDelivery } from "./offline-request";
import { chooseOtherTool } from "./offline-tools";
import type { PlanProposal } from "./prompts";

/**
 * The offline model's planner: keyword rules that turn a task into file steps (one read per
 * source, side by side; then the write; then a review when a reviewer agent exists), each
 * assigned by capability. A file the task writes to ("into x.md", "dans x.md", "en x.md",
 * "to x.md") is an output: written, never read. A question is answered from the named
 * files, or from the listed ones. What no agent can do (send email, post to a chat, run
 * code without a code tool) is named in `missing_capabilities`, and only the rest is planned.
 * A new plan after the user answered "How should I proceed?" follows the answer: another
 * file name replaces the one that failed, "create it" writes it, "skip it" leaves it out.
 * Deterministic.
 */

type Step = PlanProposal["steps"][number];

/** What the offline model answers: text, or one tool call. */
export type Reply = { kind: "text"; text: string } | { kind: "tool"; toolCallId: string; toolName: string; input: Record<string, unknown> };

interface ParsedAgent {
  id: string;
  name: string;
  tools: string[];
  /** The agent's name speaks of reviewing, or its instructions open with it: review steps go to it. */
  reviewer: boolean;
}

function parseAgents(system: string): ParsedAgent[] {
  return [...system.matchAll(/^agent (\S+) \| (.*?) \| tools: (.*)\n {2}instructions: (.*)$/gm)].map((m) => ({
    id: m[1] ?? "",
    name: m[2] ?? "",
    tools: (m[3] ?? "").split(",").map((t) => t.trim()),
    // A reviewer is named so or told to review first; a writer told to act on "Reviewer feedback" is not one.
    reviewer: /\breview/i.test(m[2] ?? "") || /^(?:review|check)\b/i.test((m[4] ?? "").trim()),
  }));
}

/** Human inputs listed by the planner prompt (`human <id> | <name> | asks: <prompt>`). */
function parseHumans(system: string): { id: string; prompt: string }[] {
  return [...system.matchAll(/^human (\S+) \| .*? \| asks: (.*)$/gm)].map((m) => ({ id: m[1] ?? "", prompt: m[2] ?? "" }));
}

/**
 * The flow's Human input steps first (asked in order), then the task's steps, each of which
 * depends on every answer (so the agents see them).
 */
export function withHumanSteps(steps: Step[], humans: { id: string; prompt: string }[]): Step[] {
  if (humans.length === 0) return steps;
  const asks: Step[] = humans.map((h, i) => ({ agent_id: h.id, task: h.prompt, expected_output: "The user's answer.", depends_on: i > 0 ? [i - 1] : [] }));
  const answers = asks.map((_, i) => i);
  const shifted = steps.map((s) => ({ ...s, depends_on: [...answers, ...s.depends_on.map((d) => d + asks.length)] }));
  return [...asks, ...shifted];
}

/** Text after "with"/"containing"/"saying", unquoted: the content of a write task. */
export function writeContent(task: string): string {
  const m = /\b(?:with|containing|saying)\s+(?:the\s+)?(?:(?:text|content|contents|words?)\b\s*)?:?\s*([\s\S]+)$/i.exec(task);
  return (m?.[1] ?? "").trim().replace(/^(["'`])([\s\S]*)\1$/, "$2");
}

/**
 * Plans a to-do collection with the built-in tools (there is no search tool): read the
 * named files, or list the workspace when none is named; one step collects the TODO lines
 * (reading each listed file); a write step turns them into a checklist when the task names
 * a file to make after its verb ("… and make a checklist in todo.md"). That file is not a
 * source: it may not exist yet.
 */
function todoSteps(task: string, files: string[], step: (tool: string | undefined, text: string, expected: string, deps?: number[]) => Step, read: (file: string) => Step): Step[] {
  const verb = task.search(/\b(?:make|write|create|save|put|store|produce|build|generate|turn|collect them|list them)\b/i);
  const target = verb >= 0 ? files.filter((f) => task.indexOf(f) > verb).at(-1) : undefined;
  const sources = files.filter((f) => f !== target);
  const plan: Step[] = [];
  if (sources.length > 0) {
    plan.push(...sources.map(read));
    plan.push(
      step(
        "read_file",
        `Collect the TODO lines of ${sources.join(" and ")}`,
        "Every TODO line with its file and line number.",
        plan.map((_, i) => i),
      ),
    );
  } else {
    plan.push(step("list_files", "List the files in the workspace", "The names of the files in the workspace."));
    const except = target ? `, except ${target}` : "";
    plan.push(step("read_file", `Collect the TODO lines of the listed files${except}`, "Every TODO line with its file and line number.", [0]));
  }
  if (target) plan.push(step("write_file", `Write a checklist of the TODO lines to ${target}`, `${target} with one unchecked item per TODO line.`, [plan.length - 1]));
  return plan;
}

/**
 * Plans a task with keyword rules (the offline model's rules: see this file's header). A file
 * name with spaces is quoted in the steps ("Read \"Q3 report.pdf\""), so each step names the
 * whole file to the executor (docs/documents.md "Extraction").
 */
function planSteps(task: string, agents: ParsedAgent[]): Step[] {
  const spaced = taskFileNames(task).filter((f) => /\s/.test(f));
  const quote = (text: string) => spaced.reduce((t, f) => t.replace(new RegExp(`(?<!["“'\`])${escapeRe(f)}(?!["”'\`])`, "g"), `"${f}"`), text);
  return planByRules(task, agents).map((s) => (spaced.length > 0 ? { ...s, task: quote(s.task), expected_output: quote(s.expected_output) } : s));
}

function planByRules(task: string, agents: ParsedAgent[]): Step[] {
  // By capability: the first agent with the tool, preferring non-reviewers for work steps.
  const agentFor = (tool?: string) => {
    const able = tool ? agents.filter((a) => a.tools.includes(tool)) : agents;
    return (able.find((a) => !a.reviewer) ?? able[0] ?? agents[0])?.id ?? "agent";
  };
  const step = (tool: string | undefined, text: string, expected: string, deps: number[] = []): Step => ({
    agent_id: agentFor(tool),
    task: text,
    expected_output: expected,
    depends_on: deps,
  });
  const read = (file: string) => step("read_file", `Read ${file}`, `The full text of ${file}.`);
  // remember / recall / http_request / run_javascript / "use <tool> with {…}": one step for
  // an agent that has that tool, worded as the user put it (the executor reads the call from it).
  const other = chooseOtherTool(task, new Set(agents.flatMap((a) => a.tools)));
  if (other) return [step(other.toolName, task.trim(), `The result of ${other.toolName}.`)];
  const files = taskFileNames(task);
  const lower = task.toLowerCase();
  const outputs = outputFiles(task, files);
  const sources = files.filter((f) => !outputs.includes(f));
  const [first] = files;
  if (isQuestion(task) && outputs.length === 0) {
    // A question: answered from the named files, else from every file of the workspace.
    if (sources.length > 0)
      return [
        ...sources.map(read),
        step(
          undefined,
          `Answer: ${task.trim()}`,
          "The answer, with its source.",
          sources.map((_, i) => i),
        ),
      ];
    return [
      step("list_files", "List the files in the workspace", "The names of the files in the workspace."),
      step("read_file", `Answer from the listed files: ${task.trim()}`, "The answer, with its source.", [0]),
    ];
  }
  // "todo.md" is a file name, not a request for to-dos.
  if (/\b(?:todos?|to-dos?|fixmes?)\b/i.test(files.reduce((t, f) => t.split(f).join(" "), task))) return todoSteps(task, files, step, read);
  if (!first) {
    if (/\blist\b|\b(?:what|which) files\b|\bfiles? (?:are|do)\b/.test(lower)) {
      return [step("list_files", "List the files in the workspace", "The names of the files in the workspace.")];
    }
    return [step(undefined, `Answer: ${task.trim()}`, "A direct answer to the user.")];
  }
  const target = outputs.at(-1);
  const kinds = KINDS.exec(task)?.[0];
  const summary = SUMMARY.test(task);
  if (!summary && kinds && target && sources.length > 0) {
    // "Extract the action items of a.md into b.md": those points, written to the output.
    const named = sources.join(" and ");
    return [
      ...sources.map(read),
      step(
        "write_file",
        `Write the ${kinds.toLowerCase()} of ${named} to ${target}`,
        `${target} listing the ${kinds.toLowerCase()} of ${named}.`,
        sources.map((_, i) => i),
      ),
    ];
  }
  if (summary || (target && sources.length > 0 && !/\bcopy\b/.test(lower) && !/\b(?:write|create|save)\b[\s\S]*\b(?:with|containing|saying)\b/i.test(task))) {
    if (!target) {
      // No output file: the summary is the answer, shaped as asked (count, audience).
      const asked = sources.length > 0 ? sources : files;
      const { count, audience } = requestOf(task);
      const shaped = `Summarize ${asked.join(" and ")}${audience ? ` for ${audience}` : ""}${count ? ` in ${count} bullet point${count === 1 ? "" : "s"}` : ""}`;
      return [
        ...asked.map(read),
        step(
          undefined,
          shaped,
          `A summary of ${asked.join(" and ")}, as asked.`,
          asked.map((_, i) => i),
        ),
      ];
    }
    // One read per source (independent, so they can run side by side), then the write.
    const named = sources.join(" and ");
    const reads = sources.map(read);
    const write = step(
      "write_file",
      `Write a summary of ${named} to ${target}`,
      `${target} containing a bullet-point summary of ${named}.`,
      reads.map((_, i) => i),
    );
    const plan = [...reads, write];
    const reviewer = agents.find((a) => a.reviewer && a.tools.includes("read_file"));
    if (reviewer) {
      // The review sees the sources too, to check each point of the draft against them.
      plan.push({ agent_id: reviewer.id, task: `Review ${target}`, expected_output: `A verdict on ${target}: its points checked against ${named}.`, depends_on: plan.map((_, i) => i) });
    }
    return plan;
  }
  const second = files[1];
  if (/\bcopy\b/.test(lower) && second) {
    return [read(first), step("write_file", `Copy the contents of ${first} to ${second}`, `${second} with the text of ${first}.`, [0])];
  }
  if (/\b(?:delete|remove)\b/.test(lower)) {
    return files.map((f) => step("delete_file", `Delete ${f}`, `${f} no longer exists.`));
  }
  if (/\b(?:write|create|save)\b/.test(lower)) {
    const content = writeContent(task);
    const into = target ?? first;
    return [step("write_file", `Write ${into} with content: ${content}`, `${into} containing the given text.`)];
  }
  return files.map(read);
}

/** Words that ask for a summary, in English, French and Spanish. */
const SUMMARY = /\b(?:summari[sz]e|summary|condense|brief|résume[rz]?|résumé|synthèse|synthétise[rz]?|resume|resumir|resumen|resúmelo|sintetiza)\b/i;
/** Kinds of points a task may ask to extract into a file. */
const KINDS = /\b(?:action items?|actions?|tasks?|next steps|decisions?|risks?|deadlines?|dates?|owners?|décisions?|risques?|tâches?|échéances?|decisiones?|riesgos?|tareas?|acciones?|fechas?)\b/i;

/** The failure and the person's answer in a re-planning prompt (docs/runs.md "Status vocabulary"). */
function replanOf(user: string): { failedTask?: string; answer?: string } | undefined {
  const block = between(user, "<replan>\n", "\n</replan>");
  if (block === undefined) return undefined;
  const failedTask = /Step \d+ \("([^"]*)"\) failed/.exec(block)?.[1];
  const answer = /The user answered: ([\s\S]*)$/.exec(block)?.[1]?.trim();
  return { ...(failedTask ? { failedTask } : {}), ...(answer ? { answer } : {}) };
}

/**
 * The task as the person's answer changes it: a file named in the answer replaces the file
 * of the failed step; "create it" makes that file an output ("… into <file>"); "skip it"
 * (or stop) leaves it out, and what needed it too. Any other answer plans the task again.
 */
function answeredTask(task: string, replan: { failedTask?: string; answer?: string }): { task: string; skipped: { task: string; reason: string }[] } {
  const answer = replan.answer ?? "";
  const failedFile = taskFileNames(replan.failedTask ?? "")[0];
  if (!answer || !failedFile) return { task, skipped: [] };
  const named = fileNames(answer).find((f) => f !== failedFile);
  if (named) return { task: task.split(failedFile).join(named), skipped: [] };
  if (/\b(?:create|make|write|crée[rz]?|créez|fais|crea|créalo|haz|escribe)\b/i.test(answer)) {
    const rest = task.split(failedFile).join(" ").replace(/\s+/g, " ").trim();
    return { task: `${rest} into ${failedFile}`, skipped: [] };
  }
  if (/\b(?:skip|ignore|without|leave (?:it|that) out|drop|stop|cancel|abandon|passe[rz]?|saute[rz]?|ignore[rz]?|sans|omets|arrête|salta|omite|sin|para|cancela)\b/i.test(answer)) {
    const reason = `you answered "${answer}"`;
    const rest = task.split(failedFile).join(" ").replace(/\s+/g, " ").trim();
    const left = taskFileNames(rest).filter((f) => !outputFiles(rest, taskFileNames(rest)).includes(f));
    if (/\b(?:stop|cancel|abandon|arrête|cancela)\b/i.test(answer) || left.length === 0) {
      return {
        task: "",
        skipped: [
          { task: replan.failedTask ?? `Read ${failedFile}`, reason },
          { task: `The rest of the task, which needs ${failedFile}: ${task}`, reason },
        ],
      };
    }
    return { task: rest, skipped: [{ task: replan.failedTask ?? `Read ${failedFile}`, reason }] };
  }
  return { task, skipped: [] };
}

/** What a missing tool means in words, for a step whose tool no agent has. */
const TOOL_CAPABILITY: Record<string, string> = {
  run_javascript: "run JavaScript",
  http_request: "fetch web pages",
  remember: "remember facts",
  recall: "recall remembered facts",
  list_files: "list files",
  read_file: "read files",
  write_file: "write files",
  delete_file: "delete files",
  search_files: "search the files",
};

export function plannerReply(options: LanguageModelV4CallOptions, system: string, user: string, tools: Set<string>): Reply {
  const asked = (between(user, "<task>\n", "\n</task>") ?? user).trim();
  const replan = replanOf(user);
  // A new plan after a failure does not ask the Human inputs again: their answers were given.
  const humans = replan ? [] : parseHumans(system);
  const agents = parseAgents(system);
  const { task, skipped } = replan ? answeredTask(asked, replan) : { task: asked, skipped: [] };
  const flowTools = new Set(agents.flatMap((a) => a.tools));
  const missing: Missing[] = task ? missingCapabilities(task, flowTools) : [];
  const rest = missing.length > 0 ? withoutDelivery(task) : task;
  const other = rest ? chooseOtherTool(rest, flowTools) : undefined;
  if (other && !flowTools.has(other.toolName) && missing.length === 0) {
    missing.push({ capability: TOOL_CAPABILITY[other.toolName] ?? `use the ${other.toolName} tool`, reason: `no agent of this flow has the ${other.toolName} tool` });
  }
  // Only what the agents can do is planned; with nothing of the task left, no step.
  const planned = !rest || (missing.length > 0 && taskFileNames(rest).length === 0) ? [] : planSteps(rest, agents);
  const plan: PlanProposal = {
    steps: planned.length > 0 ? withHumanSteps(planned, humans) : [],
    ...(missing.length > 0 ? { missing_capabilities: missing } : {}),
    ...(skipped.length > 0 ? { skipped } : {}),
  };
  if (plan.steps.length === 0 && missing.length === 0 && skipped.length === 0) plan.steps = withHumanSteps(planSteps(asked, agents), humans);
  if (!tools.has("create_plan")) return { kind: "text", text: JSON.stringify(plan) };
  return { kind: "tool", toolCallId: `call_plan_${options.prompt.length}`, toolName: "create_plan", input: plan };
}
