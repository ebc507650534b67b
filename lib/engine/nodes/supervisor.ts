import { randomUUID } from "node:crypto";
import { Command, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { structuredError } from "../../errors";
import type { EngineDeps } from "../deps";
import { emit, emitPlan, emitStep, iso } from "../emit";
import type { GraphStateValue, GraphUpdate, Plan, PlanStep } from "../state";

/** Where the Supervisor sends a run (SPEC.md 2). */
export type SupervisorTarget = "executor" | "finalizer" | "await_approval" | "planner";

/**
 * Supervisor (SPEC.md 2, 3). The only node besides the Interpreter that changes step
 * state. Each pass counts one iteration and enforces the flow's limits (iterations, wall
 * clock). Then, in order:
 * - a pending approval (the user replied with other text) -> back to AwaitApproval;
 * - an approval outcome: rejected or invalid -> the step fails, the plan fails, and the
 *   Finalizer tells the user that the tool did not run;
 * - a structured error from another node (e.g. the loop detector) -> Finalizer;
 * - the user's answer to a question -> Planner, with the answer, for a new plan;
 * - the Executor's answer for the step in progress -> step completed, or retried up to
 *   `max_tries`; a step that still fails makes a new plan once (Planner), then the
 *   Finalizer asks the user how to proceed and the run waits for the answer;
 * - a step in progress with a tool result to read -> Executor again (same step, no new
 *   handoff);
 * - the next pending step whose dependencies are completed -> delegated to its agent
 *   (handoff recorded, current agent set) -> Executor;
 * - nothing left -> plan completed (or failed) -> Finalizer.
 */
export function supervisorNode(deps: EngineDeps) {
  return async (state: GraphStateValue, config?: LangGraphRunnableConfig): Promise<Command<SupervisorTarget>> => {
    const iterations = state.iterations + 1;
    const { limits } = deps.flow;
    const elapsed = deps.now() - state.run_started_at;
    if (iterations > limits.maxIterations || (state.run_started_at > 0 && elapsed > limits.timeoutMs)) {
      const which = iterations > limits.maxIterations ? `${limits.maxIterations} iterations` : `${limits.timeoutMs} ms`;
      const error = structuredError("limit_exceeded", `The run stopped: it reached the flow's limit of ${which}.`, {
        metadata: { iterations, elapsedMs: elapsed },
      });
      return finish(config, deps, { iterations, error }, "failed");
    }
    if (state.awaiting_approval) return new Command({ update: { iterations, lifecycle: "WAIT_HUMAN" }, goto: "await_approval" });
    if (state.error) return finish(config, deps, { iterations, ...(state.plan ? { plan: { ...state.plan, status: "failed", failure_reason: state.error.message } } : {}) }, "failed");
    if (state.question && !state.awaiting_user_input) {
      // The user answered the Finalizer's question: plan again with the answer.
      const answer = [...state.messages].reverse().find((m) => m.role === "user")?.content ?? "";
      const update: GraphUpdate = { iterations, question: null, replans: 0, replan_reason: `${state.question}\nThe user answered: ${answer}`, lifecycle: "REPLAN" };
      return new Command({ update, goto: "planner" });
    }

    const plan = state.plan;
    if (!plan || plan.status !== "executing") return finish(config, deps, { iterations }, plan?.status === "failed" ? "failed" : "completed");
    const steps = plan.steps.map((s) => (state.step_usage[s.id] ? { ...s, usage: state.step_usage[s.id] } : { ...s }));
    const current = steps.find((s) => s.status === "in_progress");
    const now = iso(deps.now());

    if (state.approval_outcome && current && state.approval_outcome.decision !== "approved") {
      const outcome = state.approval_outcome;
      const tool = outcome.tool_name;
      const why = outcome.decision === "rejected" ? `The user rejected ${tool}: ${outcome.reason}` : `The approval was refused: ${outcome.reason}`;
      Object.assign(current, { status: "failed", error: why, ended_at: now });
      emitStep(config, deps.flow, current, "plan_step_failed");
      const failed: Plan = { ...plan, steps, status: "failed", failure_reason: why };
      return finish(config, deps, { iterations, approval_outcome: null, plan: failed }, "failed");
    }

    if (current && state.step_output?.step_id === current.id) {
      const out = state.step_output;
      if (out.ok) {
        Object.assign(current, { status: "completed", result: out.text, error: null, ended_at: now });
        emitStep(config, deps.flow, current, "plan_step_completed");
      } else if (current.tries < current.max_tries) {
        return delegate(config, deps, { ...plan, steps }, current, iterations, "error_recovery", `Retry ${current.tries + 1} of ${current.max_tries}: ${out.text}`);
      } else {
        Object.assign(current, { status: "failed", error: out.text, ended_at: now });
        emitStep(config, deps.flow, current, "plan_step_failed");
        const why = `Step ${current.index + 1} ("${current.task}") failed after ${current.tries} tries: ${out.text}`;
        const failed: Plan = { ...plan, steps, status: "failed", failure_reason: why };
        emitPlan(config, deps.flow, failed);
        if (state.replans < 1) {
          // First escalation: a new plan (SPEC.md 2 retries).
          const update: GraphUpdate = { iterations, step_output: null, plan: failed, replans: state.replans + 1, replan_reason: why, lifecycle: "REPLAN" };
          return new Command({ update, goto: "planner" });
        }
        // Second: ask the user, and wait for the answer.
        const question = `${why} A new plan failed as well. How should I proceed?`;
        const update: GraphUpdate = { iterations, step_output: null, plan: failed, awaiting_user_input: true, question, lifecycle: "WAIT_HUMAN" };
        return new Command({ update, goto: "finalizer" });
      }
    } else if (current) {
      return new Command({ update: { iterations, lifecycle: "STEP_EXECUTION" }, goto: "executor" });
    }

    const done = new Set(steps.filter((s) => s.status === "completed").map((s) => s.id));
    const next = steps.find((s) => s.status === "pending" && s.depends_on.every((d) => done.has(d)));
    if (next) return delegate(config, deps, { ...plan, steps }, next, iterations, "plan_step", `Step ${next.index + 1}: ${next.task}`);

    const allDone = steps.every((s) => s.status === "completed" || s.status === "skipped");
    const finished: Plan = allDone
      ? { ...plan, steps, status: "completed", summary: steps.map((s) => s.result ?? "").join("\n\n") }
      : { ...plan, steps, status: "failed", failure_reason: "Some steps could not run because the steps they depend on did not complete." };
    return finish(config, deps, { iterations, step_output: null, plan: finished }, allDone ? "completed" : "failed");
  };
}

function delegate(
  config: LangGraphRunnableConfig | undefined,
  deps: EngineDeps,
  plan: Plan,
  step: PlanStep,
  iterations: number,
  reason: "plan_step" | "error_recovery",
  explanation: string,
): Command<SupervisorTarget> {
  const agent = deps.flow.agents.find((a) => a.id === step.agent_id) ?? deps.flow.agents[0];
  const now = iso(deps.now());
  Object.assign(step, { status: "in_progress", tries: step.tries + 1, started_at: step.started_at ?? now, error: null });
  const next: Plan = { ...plan, current_step_index: step.index };
  const identity = { id: agent?.id ?? step.agent_id, name: agent?.name ?? step.agent_id, icon: agent?.icon ?? "🤖", color: agent?.color ?? "#5b3cc4" };
  const handoff = { id: randomUUID(), from: "supervisor", to: identity.id, reason, explanation, step_id: step.id, timestamp: now };
  emitPlan(config, deps.flow, next);
  emit(config, {
    type: "data-handoff",
    id: handoff.id,
    data: { from: "supervisor", to: identity.id, agentName: identity.name, icon: identity.icon, color: identity.color, reason, stepId: step.id },
  });
  emitStep(config, deps.flow, step, "plan_step_started");
  const update: GraphUpdate = {
    iterations,
    plan: next,
    current_agent: identity,
    handoffs: [handoff],
    executor_messages: [],
    step_output: null,
    proposed_tool: null,
    last_tool_result: null,
    lifecycle: "STEP_EXECUTION",
  };
  return new Command({ update, goto: "executor" });
}

function finish(
  config: LangGraphRunnableConfig | undefined,
  deps: EngineDeps,
  update: Omit<GraphUpdate, "plan"> & { plan?: Plan },
  outcome: "completed" | "failed",
): Command<SupervisorTarget> {
  if (update.plan) emitPlan(config, deps.flow, update.plan);
  return new Command({ update: { ...update, lifecycle: outcome === "completed" ? "GLOBAL_REVIEW" : "FAILED" }, goto: "finalizer" });
}
