import { randomUUID } from "node:crypto";
import { Command, type LangGraphRunnableConfig, Overwrite, type Send } from "@langchain/langgraph";
import { structuredError } from "../../errors";
import { newBranch, sendBranch } from "../branch";
import type { EngineDeps } from "../deps";
import { emit, emitPlan, emitStep, iso } from "../emit";
import { finishedPlanStatus, NOT_DONE, reviewVerdict } from "../outcomes";
import type { BranchTask, GraphStateValue, GraphUpdate, Handoff, Plan, PlanStep, StepBranch } from "../state";

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
    for (const step of steps.filter((s) => s.status === "in_progress")) {
      const b = state.branches[step.id];
      if (!b && isHuman(step)) {
        // A Human input step: the user's answer is its result; without one, ask (again).
        if (state.human_answer?.step_id === step.id) {
          Object.assign(step, { status: "completed", result: state.human_answer.text, error: null, ended_at: now });
          emitStep(config, deps.flow, step, "plan_step_completed");
        } else {
          ask = step;
        }
      } else if (!b) {
        pending.push({ node: "executor", branch: newBranch(step.id, identityOf(deps, step)) });
      } else if (b.phase === "returned") {
        pending.push({ node: "executor", branch: { ...b, phase: "running" } });
      } else if (b.phase === "awaiting_approval") {
        // A new message dropped the suspended task: suspend the branch again (same challenge).
        if (state.redispatch_awaiting) pending.push({ node: "await_approval", branch: b });
      } else if (b.phase === "done" && b.output) {
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
        if (b.output.ok) {
          const reviewed = reviewVerdict(b.output.text) === "changes_needed" ? reviewedStep(steps, step, isHuman) : null;
          if (reviewed && (step.revisions ?? 0) < MAX_REVISIONS) {
            // The review asks for changes: the reviewed step runs again with the review as
            // its feedback, then this review runs again on the new work.
            Object.assign(reviewed, { status: "pending", tries: 0, result: null, error: null, ended_at: null, feedback: b.output.text });
            Object.assign(step, { status: "pending", tries: 0, result: null, error: null, ended_at: null, revisions: (step.revisions ?? 0) + 1 });
            emitStep(config, deps.flow, reviewed, "plan_step_started");
          } else if (reviewed) {
            const why = `the review still asks for changes after ${MAX_REVISIONS} revision${MAX_REVISIONS === 1 ? "" : "s"}:\n${b.output.text}`;
            Object.assign(step, { status: "failed", result: b.output.text, error: why, ended_at: now });
            emitStep(config, deps.flow, step, "plan_step_failed");
          } else {
            Object.assign(step, { status: "completed", result: b.output.text, error: null, ended_at: now });
            emitStep(config, deps.flow, step, "plan_step_completed");
          }
        } else if (b.output.final) {
          // Blocked by a policy or rejected by an approver: final for this action, never
          // retried. Steps that need it are skipped below; the others go on.
          Object.assign(step, { status: b.output.final, error: b.output.text, ended_at: now });
          emitStep(config, deps.flow, step, "plan_step_failed");
        } else if (state.error || (b.approval_outcome && STOPS_STEP.includes(b.approval_outcome.decision))) {
          // A rejected, dismissed or refused approval or a stopping error (e.g. a loop) is
          // not retried; an expired one is (the retry asks again with a new challenge).
          Object.assign(step, { status: "failed", error: b.output.text, ended_at: now });
          emitStep(config, deps.flow, step, "plan_step_failed");
          failure = b.output.text;
        } else if (step.tries < step.max_tries && !repeatsFailure(step, b)) {
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

    const stillRunning = steps.some((s) => s.status === "in_progress" && state.branches[s.id]?.phase !== "done");
    if (!failure && !exhausted) {
      skipUnreachable(config, deps, steps, now);
      const done = new Set(steps.filter((s) => s.status === "completed").map((s) => s.id));
      for (const step of steps.filter((s) => s.status === "pending" && s.depends_on.every((d) => done.has(d)))) {
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
    const update: GraphUpdate = { iterations, plan: next, handoffs, redispatch_awaiting: false, lifecycle: "STEP_EXECUTION", human_answer: null };
    update.branches = branchUpdates;
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
 * The failed call a try ended on, as `tool:args_hash:output_hash` (the loop detector's
 * record of it); null when the try failed without a tool call failing (a model error).
 */
function failedCall(b: StepBranch): string | null {
  const last = b.last_tool_result?.status === "error" ? b.tool_history.at(-1) : undefined;
  return last ? `${last.tool}:${last.args_hash}:${last.output_hash}` : null;
}

/**
 * True when this try failed on the very call, with the very error, the previous try failed
 * on: the call is deterministic, so further retries would fail the same way (and a costly
 * call, such as a script that runs to its deadline, would only be paid for again). The step
 * goes straight on to the new plan, then the question to the user (docs/runs.md).
 */
function repeatsFailure(step: PlanStep, b: StepBranch): boolean {
  const call = failedCall(b);
  return call !== null && call === step.failed_call;
}

/** Approval outcomes that fail the step at once: the approver dismissed the call, or a factor failed. */
const STOPS_STEP: readonly string[] = ["ignored", "invalid"];

/** How many times a review may send work back for changes before the run reports it (docs/runs.md "Reviews"). */
export const MAX_REVISIONS = 1;

/**
 * The step a review judged: the latest completed agent step it depends on (a Human input
 * answer is never revised). Null when there is none, so the verdict is only reported.
 */
function reviewedStep(steps: PlanStep[], review: PlanStep, isHuman: (s: PlanStep) => boolean): PlanStep | null {
  const deps = steps.filter((s) => review.depends_on.includes(s.id) && s.status === "completed" && !isHuman(s));
  return deps.sort((a, b) => b.index - a.index)[0] ?? null;
}

/**
 * Skips every pending step that needs a step that will never complete (blocked, rejected,
 * skipped, or failed for good), transitively, saying which step and why: the run goes on
 * with the steps it can still do (docs/runs.md "Status vocabulary").
 */
function skipUnreachable(config: LangGraphRunnableConfig | undefined, deps: EngineDeps, steps: PlanStep[], now: string): void {
  const byId = new Map(steps.map((s) => [s.id, s]));
  let changed = true;
  while (changed) {
    changed = false;
    for (const step of steps.filter((s) => s.status === "pending")) {
      const lost = step.depends_on.map((id) => byId.get(id)).find((d) => d && NOT_DONE.includes(d.status));
      if (!lost) continue;
      Object.assign(step, { status: "skipped", error: `it needs step ${lost.index + 1}, which was ${lost.status}.`, ended_at: now });
      emitStep(config, deps.flow, step, "plan_step_failed");
      changed = true;
    }
  }
}

/**
 * Hands a Human input step to the user (docs/architecture.md#flows-and-compilation): the step goes in progress, a
 * clarification handoff is recorded, and the Finalizer asks the node's question and waits
 * (an interrupt; status awaiting_input). The answer comes back as `human_answer`.
 */
function askHuman(
  config: LangGraphRunnableConfig | undefined,
  deps: EngineDeps,
  step: PlanStep,
  plan: Plan,
  update: GraphUpdate,
  handoffs: Handoff[],
  now: string,
): Command {
  const human = deps.flow.humanInputs.find((h) => h.id === step.agent_id);
  const steps = plan.steps.map((s) => (s.id === step.id ? { ...s, status: "in_progress" as const, tries: s.status === "pending" ? s.tries + 1 : s.tries, started_at: s.started_at ?? now } : s));
  const asked = steps.find((s) => s.id === step.id) as PlanStep;
  const next: Plan = { ...plan, steps, current_step_index: asked.index };
  const identity = identityOf(deps, asked);
  const record: Handoff = { id: randomUUID(), from: "supervisor", to: identity.id, reason: "clarification", explanation: `Step ${asked.index + 1}: ${asked.task}`, step_id: asked.id, timestamp: now };
  emitPlan(config, deps.flow, next);
  emit(config, { type: "data-handoff", id: record.id, data: { from: "supervisor", to: identity.id, agentName: identity.name, icon: identity.icon, color: identity.color, reason: record.reason, stepId: asked.id } });
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

function finish(
  config: LangGraphRunnableConfig | undefined,
  deps: EngineDeps,
  update: Omit<GraphUpdate, "plan"> & { plan?: Plan },
  outcome: "completed" | "failed",
): Command {
  if (update.plan) emitPlan(config, deps.flow, update.plan);
  return new Command({ update: { ...update, lifecycle: outcome === "completed" ? "GLOBAL_REVIEW" : "FAILED" }, goto: "finalizer" });
}

