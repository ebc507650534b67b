import { randomUUID } from "node:crypto";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { structuredError } from "../../errors";
import { newStep } from "../plan-factory";
import type { EngineDeps } from "../deps";
import { emitPlan, emitStep, iso } from "../emit";
import type { GraphStateValue, GraphUpdate, Plan, PlanStep, TokenUsage } from "../state";
import { askForPlan } from "./plan-request";

/**
 * Planner (docs/architecture.md#nodes): asks the model for a plan through the forced `create_plan` tool,
 * checks it (known agents, dependencies on earlier steps only) and stores it with every
 * step pending. When re-planning after a failure, the same task is planned again with the
 * failure (and the user's answer, if any) in the prompt. In directed mode the plan is one step for the chosen agent, no model call.
 * An answer that is not a usable plan (prose, broken JSON, a plan that fails the schema) is
 * sent back to the model with the error once (./plan-request.ts); a model failure or a second
 * unusable answer leaves `plan.status = "failed"` with a reason naming what the model did,
 * and the Supervisor hands over to the Finalizer.
 * What the plan says it cannot do becomes steps that are settled from the start (docs/runs.md
 * "Status vocabulary"): each missing capability a `blocked` step ("no agent of this flow can
 * …"), each part the user said to leave out a `skipped` step; so the run ends `incomplete`
 * and its answer names them, whatever the model writes.
 */
export function plannerNode(deps: EngineDeps) {
  return async (state: GraphStateValue, config?: LangGraphRunnableConfig): Promise<GraphUpdate> => {
    const replanning = Boolean(state.replan_reason && state.plan);
    const task = replanning && state.plan ? state.plan.query : ([...state.messages].reverse().find((m) => m.role === "user")?.content ?? "");
    const now = iso(deps.now());
    const base = { id: randomUUID(), query: task, current_step_index: 0, summary: null, created_at: now, updated_at: now };
    const spent = { input_tokens: 0, output_tokens: 0 };
    const used: Record<string, TokenUsage> = {};
    const steps = await proposeSteps(deps, task, spent, used, replanning ? (state.replan_reason ?? undefined) : undefined, config?.signal).catch((err: unknown) => err as Error);
    if (steps instanceof Error) {
      const plan: Plan = { ...base, status: "failed", steps: [], failure_reason: steps.message };
      emitPlan(config, deps.flow, plan);
      return { plan, token_usage: spent, model_usage: used, lifecycle: "FAILED", error: structuredError("plan_failed", `The planner could not make a plan: ${steps.message}`) };
    }
    const plan: Plan = { ...base, status: "executing", steps, failure_reason: null };
    emitPlan(config, deps.flow, plan);
    for (const s of steps.filter((x) => x.status !== "pending")) emitStep(config, deps.flow, s, "plan_step_failed");
    return { plan, token_usage: spent, model_usage: used, replan_reason: null, lifecycle: "PLAN_CHECK" };
  };
}

async function proposeSteps(deps: EngineDeps, task: string, spent: TokenUsage, used: Record<string, TokenUsage>, replan?: string, signal?: AbortSignal): Promise<PlanStep[]> {
  const { flow } = deps;
  const first = flow.agents[0];
  if (!first) throw new Error("the flow has no agent");
  if (flow.mode === "directed") return [newStep(0, first.id, task, "The answer to the task.", [], first.maxTries)];
  const proposal = await askForPlan(deps, task, spent, used, replan, signal);
  const ids = proposal.steps.map(() => randomUUID());
  const planned = proposal.steps.map((s, i) => {
    const deps_ = s.depends_on.filter((d) => d < i).map((d) => ids[d] as string);
    // A Human input step is asked once (its answer cannot fail); an unknown id goes to the first agent.
    const human = flow.humanInputs.find((h) => h.id === s.agent_id);
    if (human) return { ...newStep(i, human.id, s.task, s.expected_output, deps_, 1), id: ids[i] as string };
    const agent = flow.agents.find((a) => a.id === s.agent_id) ?? first;
    return { ...newStep(i, agent.id, s.task, s.expected_output, deps_, agent.maxTries), id: ids[i] as string };
  });
  const now = iso(deps.now());
  const settled = (task: string, status: "blocked" | "skipped", error: string): PlanStep => ({
    ...newStep(planned.length, NO_AGENT, task, "Nothing: no step can do this.", [], 1),
    status,
    error,
    started_at: now,
    ended_at: now,
  });
  for (const m of proposal.missing_capabilities ?? []) {
    const why = m.reason.trim().replace(/\.$/, "");
    planned.push(settled(capitalise(m.capability.trim()), "blocked", `no agent of this flow can ${m.capability.trim().replace(/\.$/, "")}${why ? ` (${why})` : ""}.`));
  }
  for (const s of proposal.skipped ?? []) planned.push(settled(s.task.trim(), "skipped", `left out at the user's request${s.reason.trim() ? ` (${s.reason.trim().replace(/\.$/, "")})` : ""}.`));
  return planned;
}

/** The agent id of a step no agent can do (docs/runs.md "Status vocabulary"). */
export const NO_AGENT = "no agent";

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
