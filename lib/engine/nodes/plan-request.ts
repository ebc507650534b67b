import { generateText, type ModelMessage, NoSuchToolError, ToolChoiceViolationError, tool } from "ai";
import type { z } from "zod";
import { DEFAULT_MODEL_CALL_TIMEOUT_MS, withModelDeadline } from "../../models/call-timeout";
import { PlanProposal, plannerPrompt, plannerSystem } from "../../models/prompts";
import { agentInfo } from "../agents";
import type { EngineDeps } from "../deps";
import { callSettingsOf, modelRefOf } from "../../flow/compile";
import { modelKey, type TokenUsage, usageOf } from "../state";

/** How many times the planner's model is asked for a plan before the plan fails (docs/runs.md "When the model misbehaves"). */
export const PLAN_ATTEMPTS = 2;

/** Longest model text quoted back to it or in a reason, chars. */
const QUOTE_CHARS = 300;

/** What one unusable answer was: `what` names it for the run's reason, `error` is told to the model. */
interface Unusable {
  what: string;
  error: string;
}

/**
 * Asks the flow's model for a plan through the forced `create_plan` tool. An answer that is not
 * a usable plan (prose or an empty answer instead of the call, a call with broken JSON, a plan
 * that fails the schema) is answered with the error and the model is asked again, up to
 * {@link PLAN_ATTEMPTS} calls in all. Each call has the flow's model call time limit
 * (lib/models/call-timeout.ts) and stops when `signal` (the run's cancel) aborts. The tokens of every call that answered are added to `spent`,
 * and to `used` under the planner model's key (lib/engine/state.ts modelKey), whether or not its plan was usable.
 * @returns the validated proposal.
 * @throws Error whose message is the plan's failure reason, naming what the model did, e.g.
 *   "the model answered in prose twice, though it was asked again with the error (last: …)";
 *   or the model call's own error (a provider error, ModelTimeoutError), which is not re-asked.
 */
export async function askForPlan(deps: EngineDeps, task: string, spent: TokenUsage, used: Record<string, TokenUsage>, replan?: string, signal?: AbortSignal): Promise<z.infer<typeof PlanProposal>> {
  const { flow } = deps;
  // The Supervisor's model settings are the Planner's (docs/models.md "Per-node settings").
  const resolved = deps.resolveModel(modelRefOf(flow.supervisor, flow));
  const { model } = resolved;
  const key = modelKey(resolved);
  const system = plannerSystem({ instructions: flow.supervisor.instructions, agents: flow.agents.map((a) => agentInfo(deps, a)), humans: flow.humanInputs });
  const prompt = plannerPrompt(task, replan);
  const timeoutMs = flow.limits.modelCallTimeoutMs ?? DEFAULT_MODEL_CALL_TIMEOUT_MS;
  const tools = { create_plan: tool({ description: "Record the plan: ordered steps, each assigned to one agent.", inputSchema: PlanProposal }) };
  const messages: ModelMessage[] = [{ role: "user", content: prompt }];
  const problems: Unusable[] = [];
  for (let attempt = 1; attempt <= PLAN_ATTEMPTS; attempt++) {
    const answered = await withModelDeadline(
      timeoutMs,
      (d) =>
        generateText({
          model,
          ...callSettingsOf(flow.supervisor),
          system,
          ...(attempt === 1 ? { prompt } : { messages }),
          tools,
          toolChoice: { type: "tool", toolName: "create_plan" },
          abortSignal: d.signal,
          // Every answer's tokens count, also one the SDK then refuses (no create_plan call).
          onLanguageModelCallEnd: (e) => {
            const call = usageOf(e.usage);
            spent.input_tokens += call.input_tokens;
            spent.output_tokens += call.output_tokens;
            const before = used[key] ?? { input_tokens: 0, output_tokens: 0 };
            used[key] = { input_tokens: before.input_tokens + call.input_tokens, output_tokens: before.output_tokens + call.output_tokens };
          },
        }).catch((err: unknown) => {
          // The forced call is missing (prose or an empty answer): the SDK throws; read its text.
          if (ToolChoiceViolationError.isInstance(err)) return { toolCalls: [], text: textOf(err.content) };
          throw err;
        }),
      signal,
    );
    const call = answered.toolCalls.find((c) => c.toolName === "create_plan") ?? answered.toolCalls[0];
    const problem = unusable(call, answered.text);
    if (!problem.plan) {
      problems.push(problem.why);
      const text = answered.text.trim();
      if (text) messages.push({ role: "assistant", content: text });
      messages.push({
        role: "user",
        content: `That was not a usable plan: ${problem.why.error}. Call the create_plan tool once, with arguments that are valid JSON matching its schema. Do not answer in prose.`,
      });
      continue;
    }
    return problem.plan;
  }
  throw new Error(failureReason(problems));
}

/** Reads one answer: the plan, or why it is not one. */
function unusable(
  call: { toolName: string; input: unknown; invalid?: boolean; error?: unknown } | undefined,
  text: string,
): { plan: z.infer<typeof PlanProposal>; why?: never } | { plan?: never; why: Unusable } {
  const quoted = quote(text);
  if (!call) {
    return text.trim()
      ? { why: { what: "answered in prose", error: `you answered in prose ("${quoted}") instead of calling create_plan` } }
      : { why: { what: "gave an empty answer", error: "your answer was empty: no create_plan call" } };
  }
  if (call.toolName !== "create_plan" || NoSuchToolError.isInstance(call.error)) {
    return { why: { what: `called ${call.toolName} instead of create_plan`, error: `${call.toolName} is not a tool here; the only tool is create_plan` } };
  }
  if (typeof call.input === "string") {
    return { why: { what: "sent create_plan arguments that are not valid JSON", error: `the create_plan arguments are not valid JSON (${quote(call.input)})` } };
  }
  const parsed = PlanProposal.safeParse(call.input);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 5)
      .map((i) => `${i.path.join(".") || "plan"}: ${i.message}`)
      .join("; ");
    return { why: { what: "sent a plan that fails the schema", error: `the plan fails the create_plan schema (${issues})` } };
  }
  return { plan: parsed.data };
}

/** The plan's failure reason after every attempt failed: what the model did, each time, and the last error. */
function failureReason(problems: Unusable[]): string {
  const kinds = [...new Set(problems.map((p) => p.what))];
  const did = kinds.length === 1 ? `${kinds[0]} ${problems.length === 2 ? "twice" : `${problems.length} times`}` : problems.map((p) => p.what).join(", then ");
  const last = problems.at(-1);
  return `the model ${did}, though it was asked again with the error${last ? ` (last: ${last.error})` : ""}`;
}

/** The text parts of an answer's content. */
function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content.flatMap((p: { type?: unknown; text?: unknown }) => (p?.type === "text" && typeof p.text === "string" ? [p.text] : [])).join("");
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS)}…` : flat;
}
