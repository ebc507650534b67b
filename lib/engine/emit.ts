import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { FlowSpec } from "../flow/compile";
import type { Plan, PlanStep } from "./state";
import { checkChunk, type LiveChunk, type RunChunk, type RunDataTypes } from "../events/ui-parts";

/**
 * Sends one stream chunk through LangGraph's custom stream writer (`streamMode: "custom"`).
 * Outside a streaming run (e.g. `invoke`) there is no writer and the chunk is dropped.
 * @throws ZodError when a data part does not match its schema.
 */
export function emit(config: LangGraphRunnableConfig | undefined, chunk: RunChunk): void {
  config?.writer?.(checkChunk(chunk));
}

/** The UI view of a step: the state step plus its agent's (or Human input's) display name. */
export function stepView(flow: FlowSpec, step: PlanStep): Omit<RunDataTypes["step"], "event"> {
  const agent = flow.agents.find((a) => a.id === step.agent_id) ?? flow.humanInputs.find((h) => h.id === step.agent_id);
  return {
    id: step.id,
    index: step.index,
    task: step.task,
    agentId: step.agent_id,
    agentName: agent?.name ?? step.agent_id,
    status: step.status,
    tries: step.tries,
    dependsOn: step.depends_on,
    result: step.result,
    error: step.error,
    usage: step.usage ? { inputTokens: step.usage.input_tokens, outputTokens: step.usage.output_tokens } : null,
  };
}

/** Emits the whole plan (one data part per plan id, replaced on each change). */
export function emitPlan(config: LangGraphRunnableConfig | undefined, flow: FlowSpec, plan: Plan): void {
  emit(config, { type: "data-plan", id: plan.id, data: { planId: plan.id, status: plan.status, steps: plan.steps.map((s) => stepView(flow, s)) } });
}

/** Emits a step's start or end (one data part per step id). */
export function emitStep(config: LangGraphRunnableConfig | undefined, flow: FlowSpec, step: PlanStep, event: "plan_step_started" | "plan_step_completed" | "plan_step_failed"): void {
  emit(config, { type: "data-step", id: step.id, data: { ...stepView(flow, step), event } });
}

/** ISO-8601 time of a clock reading (ms). */
export const iso = (ms: number): string => new Date(ms).toISOString();

/** Sends a {@link LiveChunk} through LangGraph's custom stream writer (dropped outside a streaming run). */
export function emitLive(config: LangGraphRunnableConfig | undefined, chunk: LiveChunk): void {
  config?.writer?.(chunk);
}
