import { randomUUID } from "node:crypto";
import { Command, type LangGraphRunnableConfig, Overwrite, type Send } from "@langchain/langgraph";
import { structuredError } from "../../errors";
import { newBranch, sendBranch } from "../branch";
import type { EngineDeps } from "../deps";
import { emit, emitPlan, emitStep, iso } from "../emit";
import { finishedPlanStatus } from "../outcomes";
import type { BranchTask, GraphStateValue, GraphUpdate, Handoff, Plan, PlanStep, StepBranch } from "../state";
import { failedCall, joinBranch, readySteps, unreachableSteps } from "../step-rules";

export { MAX_REVISIONS } from "../step-rules";

/**
 * Supervisor (docs/architecture.md#nodes). The only node besides the Interpreter that changes step state,
 * and the one that joins the branches of steps running side by side. Each pass counts one
 * iteration and enforces the flow's limits. Then:
 * - each step in progress: its branch is done -> the step completes (unless its result is a
 *   review asking for changes: the reviewed step runs again with the review as feedback,
 *   once), or is blocked or rejected (final: never retried; the steps that need it are
 *   skipped, the others go on), or is retried up to `max_tries` (an expired approval too:
 *   the retry asks again), or fails (a dismissed or refused approval fails it at once); its branch
 *   returned a tool result -> Executor again; its branch waits for approval but lost its
 *   task (a new message arrived) -> AwaitApproval again;
 * - every pending step whose dependencies are completed is delegated to its agent (handoff
 *   recorded, agent identity set): several at once run in parallel (LangGraph `Send`);
 * - an approver dismissed a call (`cancelled`): the plan is cancelled, its open steps
 *   skipped -> Finalizer;
 * - nothing running and nothing left -> Finalizer (plan completed, or incomplete when some
 *   step was not done); a step that
 *   still fails after its tries makes a new plan once (Planner), then the Finalizer asks
 *   the user how to proceed. The plan is never finished while a branch is still running.
 */
export function supervisorNode(deps: EngineDeps) {
  return async (state: GraphStateValue, config?: LangGraphRunnableConfig): Promise<Command> => {
    const iterations = state.iterations + 1;
    const { limits } = deps.flow;
    const plan = state.plan;
    const inFlight = (p: Plan | null) => (p?.steps ?? []).filter((s) => s.status === "in_progress" && state.branches[s.id]?.phase !== "done");
    const started = Math.max(state.run_started_at, deps.invokedAt ?? 0);
    const elapsed = deps.now() - started;
    if (iterations > limits.maxIterations || (started > 0 && elapsed > limits.timeoutMs)) {
      const which = iterations > limits.maxIterations ? `${limits.maxIterations} iterations` : `${limits.timeoutMs} ms`;
      const error = structuredError("limit_exceeded", `The run stopped: it reached the flow's limit of ${which}.`, { metadata: { iterations, elapsedMs: elapsed } });
      return finish(config, deps, { iterations, error, ...(plan ? { plan: { ...plan, status: "failed", failure_reason: error.message } } : {}) }, "failed");
    }
    if (state.cancelled && plan && plan.status === "executing" && inFlight(plan).length === 0) {
      // An approver dismissed a call (HumanResponse "ignore"): nothing else runs.
      const steps = plan.steps.map((s) => (s.status === "pending" || s.status === "in_progress" ? { ...s, status: "skipped" as const, error: state.cancelled?.reason ?? "cancelled" } : s));
      return finish(config, deps, { iterations, plan: { ...plan, steps, status: "cancelled", failure_reason: state.cancelled.reason } }, "failed");
    }
    if (state.error && inFlight(plan).length === 0) {
      return finish(config, deps, { iterations, ...(plan ? { plan: { ...plan, status: "failed", failure_reason: state.error.message } } : {}) }, "failed");
    }
    if (!plan || plan.status !== "executing") return finish(config, deps, { iterations }, plan?.status === "failed" ? "failed" : "completed");

    const now = iso(deps.now());
    const steps = plan.steps.map((s) => (state.step_usage[s.id] ? { ...s, usage: state.step_usage[s.id] } : { ...s }));
    const sends: Send[] = [];
    const branchUpdates: Record<string, StepBranch> = {};
    const handoffs: Handoff[] = [];
    let failure: string | null = null;
    let exhausted: PlanStep | null = null;
    const task = (b: StepBranch, p: Plan): BranchTask => ({ thread_id: state.thread_id, user_id: state.user_id, plan: p, branch: b });
    const pending: { node: "executor" | "await_approval"; branch: StepBranch }[] = [];

    let ask: PlanStep | null = null;
    const isHuman = (step: PlanStep) => deps.flow.humanInputs.some((h) => h.id === step.agent_id);
    const join = { steps, isHuman, humanAnswer: state.human_answer, redispatchAwaiting: state.redispatch_awaiting, stoppingError: Boolean(state.error) };
    for (const step of steps.filter((s) => s.status === "in_progress")) {
      const b = state.branches[step.id];
      const verdict = joinBranch(step, b, join);
      switch (verdict.kind) {
        case "answered":
          // A Human input step: the user's answer is its result.
          Object.assign(step, { status: "completed", result: verdict.text, error: null, ended_at: now });
          emitStep(config, deps.flow, step, "plan_step_completed");
          break;
        case "ask":
          ask = step;
          break;
        case "start":
          pending.push({ node: "executor", branch: newBranch(step.id, identityOf(deps, step)) });
          break;
        case "continue":
          if (b) pending.push({ node: "executor", branch: { ...b, phase: "running" } });
          break;
        case "redispatch":
          // A new message dropped the suspended task: suspend the branch again (same challenge).
          if (b) pending.push({ node: "await_approval", branch: b });
          break;
        case "wait":
          break;
        default: {
          if (!b?.output) break;
          // The step is settled here: keep its outcome, drop its working conversation so the
          // state (and every checkpoint after this one) stays small.
          branchUpdates[step.id] = { ...b, executor_messages: [], tool_history: [], last_tool_result: null };
          // Short-term memory (docs/architecture.md#memory): each settled attempt of a step, once (keyed by try).
          await deps.memory?.append(state.thread_id, {
            key: `step:${step.id}:${step.tries}`,
            agentId: b.agent.id,
            action: `step ${step.index + 1}: ${step.task}`,
            result: b.output.ok ? b.output.text : `failed: ${b.output.text}`,
            stepId: step.id,
          });
          if (verdict.kind === "revise") {
            // The review asks for changes: the reviewed step runs again with the review as
            // its feedback, then this review runs again on the new work.
            Object.assign(verdict.reviewed, { status: "pending", tries: 0, result: null, error: null, ended_at: null, feedback: b.output.text });
            Object.assign(step, { status: "pending", tries: 0, result: null, error: null, ended_at: null, revisions: (step.revisions ?? 0) + 1 });
            emitStep(config, deps.flow, verdict.reviewed, "plan_step_started");
          } else if (verdict.kind === "revisions_exhausted") {
            Object.assign(step, { status: "failed", result: b.output.text, error: verdict.why, ended_at: now });
            emitStep(config, deps.flow, step, "plan_step_failed");
          } else if (verdict.kind === "complete") {
            Object.assign(step, { status: "completed", result: b.output.text, error: null, ended_at: now });
            emitStep(config, deps.flow, step, "plan_step_completed");
          } else if (verdict.kind === "final") {
            // Blocked by a policy or rejected by an approver: final for this action, never
            // retried. Steps that need it are skipped below; the others go on.
            Object.assign(step, { status: verdict.status, error: b.output.text, ended_at: now });
            emitStep(config, deps.flow, step, "plan_step_failed");
          } else if (verdict.kind === "fail") {
            // A rejected, dismissed or refused approval or a stopping error (e.g. a loop) is
            // not retried; an expired one is (the retry asks again with a new challenge).
            Object.assign(step, { status: "failed", error: b.output.text, ended_at: now });
            emitStep(config, deps.flow, step, "plan_step_failed");
            failure = b.output.text;
          } else if (verdict.kind === "retry") {
            Object.assign(step, { tries: step.tries + 1, error: b.output.text, failed_call: failedCall(b) });
            const retry = newBranch(step.id, identityOf(deps, step));
            handoffs.push(handoff(step, retry, "error_recovery", `Retry ${step.tries} of ${step.max_tries}: ${b.output.text}`, now));
            pending.push({ node: "executor", branch: retry });
            emitStep(config, deps.flow, step, "plan_step_started");
          } else {
            Object.assign(step, { status: "failed", error: b.output.text, ended_at: now });
            emitStep(config, deps.flow, step, "plan_step_failed");
            exhausted = step;
          }
        }
      }
    }

    const stillRunning = steps.some((s) => s.status === "in_progress" && state.branches[s.id]?.phase !== "done");
    if (!failure && !exhausted) {
      skipUnreachable(config, deps, steps, now);
      for (const step of readySteps(steps)) {
        if (isHuman(step)) {
          // Asked one at a time, once nothing else runs (the run waits on the user).
          ask ??= step;
          continue;
        }
        const identity = identityOf(deps, step);
        Object.assign(step, { status: "in_progress", tries: step.tries + 1, started_at: step.started_at ?? now, error: null });
        const b = newBranch(step.id, identity);
        handoffs.push(handoff(step, b, "plan_step", `Step ${step.index + 1}: ${step.task}`, now));
        pending.push({ node: "executor", branch: b });
      }
    }

    const next: Plan = { ...plan, steps, current_step_index: steps.find((s) => s.status === "in_progress")?.index ?? plan.current_step_index };
    // Only the channels that change: each channel written is stored again in the checkpoint.
    const update: GraphUpdate = {
      iterations,
      plan: next,
      ...(handoffs.length > 0 ? { handoffs } : {}),
      ...(state.redispatch_awaiting ? { redispatch_awaiting: false } : {}),
      ...(state.lifecycle !== "STEP_EXECUTION" ? { lifecycle: "STEP_EXECUTION" as const } : {}),
      ...(state.human_answer !== null ? { human_answer: null } : {}),
    };
    if (Object.keys(branchUpdates).length > 0 || pending.length > 0) update.branches = branchUpdates;
    if (pending.length > 0 || stillRunning) {
      emitPlan(config, deps.flow, next);
      for (const h of handoffs) {
        const step = steps.find((s) => s.id === h.step_id);
        const b = pending.find((p) => p.branch.step_id === h.step_id)?.branch;
        if (!step || !b) continue;
        emit(config, {
          type: "data-handoff",
          id: h.id,
          data: { from: "supervisor", to: b.agent.id, agentName: b.agent.name, icon: b.agent.icon, color: b.agent.color, reason: h.reason, stepId: step.id },
        });
        if (h.reason === "plan_step") emitStep(config, deps.flow, step, "plan_step_started");
      }
      for (const p of pending) {
        branchUpdates[p.branch.step_id] = p.branch;
        sends.push(sendBranch(p.node, task(p.branch, next), p.branch));
      }
      const last = pending.at(-1)?.branch.agent;
      // With branches still running, wait for them: this path ends, theirs go on.
      return new Command({ update: { ...update, ...(last ? { current_agent: last } : {}) }, goto: sends });
    }

    if (ask && !failure && !exhausted) return askHuman(config, deps, ask, next, { ...update, iterations }, handoffs, now);
    if (failure) return finish(config, deps, { iterations, handoffs, plan: { ...next, status: "failed", failure_reason: failure } }, "failed");
    if (exhausted) {
      const why = `Step ${exhausted.index + 1} ("${exhausted.task}") failed after ${exhausted.tries} tries: ${exhausted.error ?? "unknown error"}`;
      const failed: Plan = { ...next, status: "failed", failure_reason: why };
      emitPlan(config, deps.flow, failed);
      if (state.replans < 1) {
        // First escalation: a new plan (docs/architecture.md#retries-limits-and-eviction).
        return new Command({ update: { iterations, plan: failed, branches: new Overwrite({}), replans: state.replans + 1, replan_reason: why, lifecycle: "REPLAN" }, goto: "planner" });
      }
      // Second: ask the user, and wait for the answer.
      const question = `${why} A new plan failed as well. How should I proceed?`;
      return new Command({ update: { iterations, plan: failed, awaiting_user_input: true, question, lifecycle: "WAIT_HUMAN" }, goto: "finalizer" });
    }
    const settled = steps.every((s) => s.status !== "pending" && s.status !== "in_progress");
    const finished: Plan = settled
      ? {
          ...next,
          status: finishedPlanStatus(steps),
          summary: steps.flatMap((s) => (s.status === "completed" && s.result ? [s.result] : [])).join("\n\n"),
        }
      : { ...next, status: "failed", failure_reason: "Some steps could not run because the steps they depend on did not complete." };
    return finish(config, deps, { iterations, plan: finished }, settled ? "completed" : "failed");
  };
}

/**
 * Skips every pending step that needs a step that will never complete (blocked, rejected,
 * skipped, or failed for good), transitively, saying which step and why: the run goes on
 * with the steps it can still do (docs/runs.md "Status vocabulary").
 */
function skipUnreachable(config: LangGraphRunnableConfig | undefined, deps: EngineDeps, steps: PlanStep[], now: string): void {
  for (const { step, lost, lostStatus } of unreachableSteps(steps)) {
    Object.assign(step, { status: "skipped", error: `it needs step ${lost.index + 1}, which was ${lostStatus}.`, ended_at: now });
    emitStep(config, deps.flow, step, "plan_step_failed");
  }
}

/**
 * Hands a Human input step to the user (docs/architecture.md#flows-and-compilation): the step goes in progress, a
 * clarification handoff is recorded, and the Finalizer asks the node's question and waits
 * (an interrupt; status awaiting_input). The answer comes back as `human_answer`.
 */
function askHuman(config: LangGraphRunnableConfig | undefined, deps: EngineDeps, step: PlanStep, plan: Plan, update: GraphUpdate, handoffs: Handoff[], now: string): Command {
  const human = deps.flow.humanInputs.find((h) => h.id === step.agent_id);
  const steps = plan.steps.map((s) => (s.id === step.id ? { ...s, status: "in_progress" as const, tries: s.status === "pending" ? s.tries + 1 : s.tries, started_at: s.started_at ?? now } : s));
  const asked = steps.find((s) => s.id === step.id) as PlanStep;
  const next: Plan = { ...plan, steps, current_step_index: asked.index };
  const identity = identityOf(deps, asked);
  const record: Handoff = { id: randomUUID(), from: "supervisor", to: identity.id, reason: "clarification", explanation: `Step ${asked.index + 1}: ${asked.task}`, step_id: asked.id, timestamp: now };
  emitPlan(config, deps.flow, next);
  emit(config, {
    type: "data-handoff",
    id: record.id,
    data: { from: "supervisor", to: identity.id, agentName: identity.name, icon: identity.icon, color: identity.color, reason: record.reason, stepId: asked.id },
  });
  emitStep(config, deps.flow, asked, "plan_step_started");
  const question = human?.prompt ?? asked.task;
  return new Command({
    update: { ...update, plan: next, handoffs: [...handoffs, record], current_agent: identity, awaiting_user_input: true, question, human_step_id: asked.id, lifecycle: "WAIT_HUMAN" },
    goto: "finalizer",
  });
}

/** The identity a step runs under: its agent, or its Human input node (🙋). */
function identityOf(deps: EngineDeps, step: PlanStep) {
  const human = deps.flow.humanInputs.find((h) => h.id === step.agent_id);
  if (human) return { id: human.id, name: human.name, icon: "🙋", color: "#a05a00" };
  const agent = deps.flow.agents.find((a) => a.id === step.agent_id) ?? deps.flow.agents[0];
  return { id: agent?.id ?? step.agent_id, name: agent?.name ?? step.agent_id, icon: agent?.icon ?? "🤖", color: agent?.color ?? "#5b3cc4" };
}

function handoff(step: PlanStep, b: StepBranch, reason: Handoff["reason"], explanation: string, at: string): Handoff {
  return { id: randomUUID(), from: "supervisor", to: b.agent.id, reason, explanation, step_id: step.id, timestamp: at };
}

function finish(config: LangGraphRunnableConfig | undefined, deps: EngineDeps, update: Omit<GraphUpdate, "plan"> & { plan?: Plan }, outcome: "completed" | "failed"): Command {
  if (update.plan) emitPlan(config, deps.flow, update.plan);
  return new Command({ update: { ...update, lifecycle: outcome === "completed" ? "GLOBAL_REVIEW" : "FAILED" }, goto: "finalizer" });
}
