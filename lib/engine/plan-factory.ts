import { randomUUID } from "node:crypto";
import type { FlowSpec } from "../flow/compile";
import type { Plan, PlanStep } from "./state";

/** A pending plan step (docs/architecture.md#state-and-channels) with a fresh id; `dependsOn` holds step ids. */
export function newStep(index: number, agentId: string, task: string, expected: string, dependsOn: string[], maxTries: number): PlanStep {
  return {
    id: randomUUID(),
    index,
    agent_id: agentId,
    task,
    expected_output: expected,
    depends_on: dependsOn,
    status: "pending",
    tries: 0,
    max_tries: maxTries,
    result: null,
    error: null,
    started_at: null,
    ended_at: null,
  };
}

/**
 * Directed mode (docs/architecture.md#flows-and-compilation): the user picked one agent, so there is no planning: the plan
 * is the task itself as one step for that agent.
 * @returns null when the flow has no agent with that id.
 */
export function directedPlan(flow: FlowSpec, agentId: string, task: string, nowIso: string): Plan | null {
  const agent = flow.agents.find((a) => a.id === agentId);
  if (!agent) return null;
  return {
    id: randomUUID(),
    query: task,
    status: "executing",
    steps: [newStep(0, agent.id, task, "What the user asked for.", [], agent.maxTries)],
    current_step_index: 0,
    summary: null,
    failure_reason: null,
    created_at: nowIso,
    updated_at: nowIso,
  };
}
