import { z } from "zod";

/**
 * Prompt builders for the four model roles the engine uses (planner, executor, finalizer,
 * conversation). Each system prompt opens with a marker line so the offline model
 * (`./offline.ts`) can tell the roles apart; the blocks below are written for an LLM and
 * kept in a line format that the offline model parses back.
 */

/** First line of each role's system prompt. */
export const PROMPT_MARKERS = {
  planner: "[phylactery:planner]",
  executor: "[phylactery:executor]",
  finalizer: "[phylactery:finalizer]",
  conversation: "[phylactery:conversation]",
} as const;

/** One prompt role, keyed like {@link PROMPT_MARKERS}. */
export type PromptRole = keyof typeof PROMPT_MARKERS;

/** What the planner and an executor know about an agent. */
export interface AgentInfo {
  id: string;
  name: string;
  instructions: string;
  tools: { name: string; description: string }[];
}

/** One step of a plan, as the planner proposes it through the `create_plan` tool. */
export const PlanStep = z.object({
  agent_id: z.string().min(1).describe("Id of the agent that runs this step (one of the listed agents), or of a listed human input."),
  task: z.string().min(1).describe("What the agent must do in this step, in one imperative sentence."),
  expected_output: z.string().describe("What the step produces when it is done."),
  depends_on: z.array(z.number().int().min(0)).describe("0-based indexes of earlier steps whose results this step needs; [] when none."),
});

/** A capability the task needs that no agent of the flow has (docs/runs.md "Status vocabulary"). */
export const MissingCapability = z.object({
  capability: z.string().min(1).describe('What is needed, in a few words, e.g. "send email".'),
  reason: z.string().describe("Why the listed agents and tools cannot do it."),
});

/** A part of the task the user said to leave out (when re-planning after their answer). */
export const SkippedPart = z.object({
  task: z.string().min(1).describe("The part of the task that is left out, as one imperative sentence."),
  reason: z.string().describe("Why, in the user's words."),
});

/**
 * Input of the `create_plan` tool: up to 20 ordered steps, plus what the plan cannot do
 * (`missing_capabilities`) and what the user said to leave out (`skipped`). At least one of
 * the three is not empty. Each missing capability and skipped part becomes a step that is
 * `blocked` or `skipped` from the start, so the run ends `incomplete` naming it.
 */
export const PlanProposal = z
  .object({
    steps: z.array(PlanStep).max(20).describe("The ordered steps of the plan, for what the agents can do; [] when they can do nothing of it."),
    missing_capabilities: z
      .array(MissingCapability)
      .max(10)
      .optional()
      .describe("What the task needs that no listed agent or tool can do (e.g. sending email, posting to a chat, running code without a code tool). Never plan a step that pretends to do it."),
    skipped: z.array(SkippedPart).max(10).optional().describe("Parts of the task the user said to leave out."),
  })
  .refine((p) => p.steps.length + (p.missing_capabilities?.length ?? 0) + (p.skipped?.length ?? 0) > 0, { message: "the plan has no step" });

/** Name of the tool every executor is offered to say its step cannot be done (never run: the Executor handles it). */
export const REPORT_IMPOSSIBLE = "report_impossible";

/** Input of {@link REPORT_IMPOSSIBLE}. */
export const ReportImpossible = z.object({
  reason: z.string().min(1).describe('Why the step cannot be done with your tools, e.g. "no tool can run JavaScript".'),
});

/** A parsed plan proposal. */
export type PlanProposal = z.infer<typeof PlanProposal>;

/** Collapses whitespace (newlines included) so a value fits on one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Escapes a value for a double-quoted attribute of a pseudo-XML block. */
function attr(text: string): string {
  return oneLine(text).replace(/&/g, "&amp;").replace(/"/g, "&quot;");
}

/**
 * Lists agents one per line: `agent <id> | <name> | tools: a, b`, followed by an indented
 * `instructions:` line. `|` inside names is replaced so the columns stay parseable.
 */
function agentsBlock(agents: AgentInfo[]): string {
  if (agents.length === 0) return "(no agents)";
  return agents
    .map((a) => {
      const tools = a.tools.map((t) => t.name).join(", ") || "(none)";
      const head = `agent ${oneLine(a.id)} | ${oneLine(a.name).replace(/\|/g, "/")} | tools: ${tools}`;
      const instructions = oneLine(a.instructions) || "(none)";
      const toolLines = a.tools.map((t) => `  - ${t.name}: ${oneLine(t.description)}`);
      return [head, `  instructions: ${instructions}`, ...toolLines].join("\n");
    })
    .join("\n");
}

/**
 * System prompt of the planner, which must answer by calling `create_plan` with a
 * {@link PlanProposal}.
 * @param input.instructions the flow's supervisor instructions (may be empty).
 * @param input.agents the agents a step may be assigned to, in flow order.
 */
export function plannerSystem(input: { instructions: string; agents: AgentInfo[]; humans?: HumanInfo[] }): string {
  const instructions = input.instructions.trim() || "(none)";
  const humans = input.humans ?? [];
  return [
    PROMPT_MARKERS.planner,
    "You are the planner of a team of AI agents. Turn the user's task into a short plan that the agents below can carry out with their tools, then call the create_plan tool with it. Do not do the work yourself and do not answer in prose.",
    "",
    "Rules:",
    "- Use as few steps as the task needs (at most 20). One step is one concrete action, e.g. read one file, or write one file.",
    "- Assign every step to the agent whose tools can do it; use the agent id exactly as listed.",
    '- Write each task as one imperative sentence that names the files involved, e.g. "Read notes.md".',
    "- depends_on lists the 0-based indexes of earlier steps whose results the step needs (a step only sees the results of the steps it depends on). Never refer to a later step.",
    '- expected_output says what the step produces, e.g. "The full text of notes.md."',
    "- If the task needs no tools, plan a single step that answers it.",
    "- The tools listed under the agents below are all the tools there are. If the task (or part of it) needs something none of them can do, such as sending an email, posting to a chat, or running code when no agent has a code tool, do not plan a step that pretends to do it: name it in missing_capabilities with the reason, and plan steps only for the rest.",
    '- Output files (the file a task writes "into", "to", "dans", "en") may not exist yet: plan a write for them, never a read.',
    '- When re-planning after the user\'s answer, follow the answer: a file they name replaces the one that failed; "create it" means write that file; for "skip it", leave that part out and list it in skipped.',
    "",
    "Flow instructions:",
    instructions,
    "",
    "Agents:",
    agentsBlock(input.agents),
    ...(humans.length > 0
      ? ["", "Human inputs (a step assigned to one asks the user its question and waits; the step's result is the user's answer, so steps that need it depend on it):", humansBlock(humans)]
      : []),
  ].join("\n");
}

/** A Human input node as the planner sees it (docs/architecture.md#flows-and-compilation). */
export interface HumanInfo {
  id: string;
  name: string;
  prompt: string;
}

/** Lists human inputs one per line: `human <id> | <name> | asks: <prompt>`. */
function humansBlock(humans: HumanInfo[]): string {
  return humans.map((h) => `human ${oneLine(h.id)} | ${oneLine(h.name).replace(/\|/g, "/")} | asks: ${oneLine(h.prompt)}`).join("\n");
}

/**
 * User prompt of the planner: the task inside `<task>` tags, and when re-planning, why the
 * previous plan failed and what the user said, inside `<replan>` (docs/architecture.md#retries-limits-and-eviction).
 * @param task the user's request, verbatim.
 * @param replan the failure and the user's answer, when this is a new plan after a failure.
 */
export function plannerPrompt(task: string, replan?: string): string {
  const head = `Plan this task and call create_plan.\n<task>\n${task.trim()}\n</task>`;
  return replan?.trim() ? `${head}\nThe previous plan failed; make a new plan that avoids the failure.\n<replan>\n${replan.trim()}\n</replan>` : head;
}

/**
 * System prompt of an executor agent running one plan step.
 * @param agent the agent (its name and instructions are quoted; tools arrive as AI SDK tools).
 */
export function executorSystem(agent: AgentInfo): string {
  const tools = agent.tools.map((t) => t.name).join(", ") || "(none)";
  return [
    PROMPT_MARKERS.executor,
    `You are ${oneLine(agent.name)} (agent ${oneLine(agent.id)}).`,
    "",
    "Your instructions:",
    agent.instructions.trim() || "(none)",
    "",
    `Tools: ${tools}`,
    "",
    "Rules:",
    "- Do only the step you are given, nothing from other steps.",
    "- Use your tools to act on files; never claim you read or wrote a file without calling the tool.",
    "- Call one tool at a time and wait for its result.",
    "- When you read something, quote what you read in your answer so later steps can use it.",
    "- If a tool fails or is rejected, do not retry it; say what happened. Never present an error message as content, and never write one into a file.",
    `- If the step needs something your tools cannot do (e.g. send an email, run code without a code tool), call ${REPORT_IMPOSSIBLE} with the reason; never answer as if it were done.`,
    "- If an earlier result is a person's answer (who the text is for, what to focus on), shape your work by it: name that audience and put that focus first.",
    '- If an earlier result is "Reviewer feedback", act on it: use every source it says was unused and leave out every point it says is unsupported.',
    "- When the step is done, reply with plain text (no tool call): the step's result.",
    // search_files answers passages with their lines (docs/library.md "search_files").
    ...(agent.tools.some((t) => t.name === "search_files")
      ? ['- To find where the files say something, call search_files; cite every fact you take from it as "file:start-end" (e.g. "notes.md:3-5").']
      : []),
  ].join("\n");
}

/**
 * User prompt of an executor: the step, its expected output, and the results of the steps
 * it depends on as `<step-result task="...">` blocks.
 * @param input.stepIndex 0-based index of the step; shown 1-based.
 * @param input.context results of the dependency steps, in plan order.
 */
export function executorPrompt(input: {
  stepIndex: number;
  stepCount: number;
  task: string;
  expectedOutput: string;
  context: { task: string; result: string }[];
  /** What memory gives the agent (docs/architecture.md#memory): recent short-term entries and the top facts. */
  memory?: { recent: { agent: string; action: string; result: string }[]; facts: { content: string }[] };
}): string {
  const lines = [`Step ${input.stepIndex + 1} of ${input.stepCount}.`, "<step-task>", input.task.trim(), "</step-task>", "<expected-output>", input.expectedOutput.trim(), "</expected-output>"];
  if (input.context.length > 0) {
    lines.push("Results of the earlier steps this step depends on:");
    for (const c of input.context) {
      lines.push(`<step-result task="${attr(c.task)}">`, c.result.trim(), "</step-result>");
    }
  }
  const memory = input.memory;
  if (memory && (memory.recent.length > 0 || memory.facts.length > 0)) {
    lines.push("<memory>", "What you remember; use it when it helps, and trust the step results above over it.");
    for (const r of memory.recent) lines.push(`<recent agent="${attr(r.agent)}" action="${attr(r.action)}">${r.result.trim()}</recent>`);
    for (const f of memory.facts) lines.push(`<fact>${f.content.trim()}</fact>`);
    lines.push("</memory>");
  }
  lines.push("Do this step now.");
  return lines.join("\n");
}

/** System prompt of the finalizer, which writes the answer the user sees. */
export function finalizerSystem(): string {
  return [
    PROMPT_MARKERS.finalizer,
    "You write the final answer of a multi-agent run for the user.",
    "Rules:",
    "- Answer the user's task directly, using only the step results given; do not invent results.",
    "- Say plainly what was done (files read, written, deleted) and what was not.",
    "- If a note says an action was rejected or failed, say that the action was not carried out and why.",
    "- Be brief: a sentence or two, then the key result (quote short results).",
  ].join("\n");
}

/**
 * User prompt of the finalizer: the task, each step's status and result as `<step>` blocks,
 * and an optional note (e.g. "The user rejected write_file.").
 */
export function finalizerPrompt(input: { task: string; steps: { task: string; status: string; result: string }[]; note?: string }): string {
  const lines = ["<task>", input.task.trim(), "</task>", "Steps:"];
  input.steps.forEach((s, i) => {
    lines.push(`<step index="${i + 1}" status="${attr(s.status)}" task="${attr(s.task)}">`, s.result.trim(), "</step>");
  });
  if (input.steps.length === 0) lines.push("(no steps ran)");
  if (input.note?.trim()) lines.push("<note>", input.note.trim(), "</note>");
  lines.push("Write the final answer.");
  return lines.join("\n");
}

/** System prompt for small talk outside any plan. */
export function conversationSystem(): string {
  return [
    PROMPT_MARKERS.conversation,
    "You are Phylactery, an assistant that runs teams of AI agents on files in a sandboxed workspace.",
    'This message needs no plan: reply briefly and kindly. If the user seems to want work done, suggest phrasing it as a task, e.g. "Summarize notes.md into summary.md".',
  ].join("\n");
}
