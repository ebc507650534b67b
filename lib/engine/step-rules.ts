import { NOT_DONE, reviewVerdict } from "./outcomes";
import type { PlanStep, StepBranch } from "./state";

/**
 * The Supervisor's step rules as pure functions (docs/architecture.md#steps-in-parallel,
 * docs/runs.md "Status vocabulary"): how a step in progress and its branch are joined, which
 * pending steps are ready, which can never run. No graph, no services, no emits: the
 * Supervisor (lib/engine/nodes/supervisor.ts) applies what they decide.
 */

/** How many times a review may send work back for changes before the run reports it (docs/runs.md "Reviews"). */
export const MAX_REVISIONS = 1;

/** Approval outcomes that fail the step at once: the approver dismissed the call, or a factor failed. */
export const STOPS_STEP: readonly string[] = ["ignored", "invalid"];

/** What the Supervisor does with one step in progress, given its branch. */
export type BranchJoin =
  /** A Human input step without the user's answer: ask (again). */
  | { kind: "ask" }
  /** A Human input step the user answered: the answer is its result. */
  | { kind: "answered"; text: string }
  /** No branch yet: start one at the Executor. */
  | { kind: "start" }
  /** The branch returned a tool result: back to the Executor. */
  | { kind: "continue" }
  /** The branch waits on an approval whose task a new message dropped: suspend it again. */
  | { kind: "redispatch" }
  /** The branch is still running (or waiting on its approval): nothing to do. */
  | { kind: "wait" }
  /** The review asks for changes: `reviewed` runs again with the review as feedback, then the review. */
  | { kind: "revise"; reviewed: PlanStep }
  /** The review still asks for changes after MAX_REVISIONS: the review step fails. */
  | { kind: "revisions_exhausted"; why: string }
  /** Done with a usable output: the step completes. */
  | { kind: "complete" }
  /** Blocked by a policy or rejected by an approver: final, never retried. */
  | { kind: "final"; status: NonNullable<NonNullable<StepBranch["output"]>["final"]> }
  /** A refused or dismissed approval, or a stopping error: the step and the plan fail. */
  | { kind: "fail" }
  /** A failed try with tries left: a new branch. */
  | { kind: "retry" }
  /** A failed try with no tries left (or the very same failure again): the step fails, a new plan is made. */
  | { kind: "exhausted" };

/** What {@link joinBranch} reads besides the step and its branch. */
export interface JoinContext {
  /** All steps of the plan (a review finds the step it judged among them). */
  steps: PlanStep[];
  isHuman: (step: PlanStep) => boolean;
  /** The user's answer to a Human input step, if one arrived. */
  humanAnswer: { step_id: string; text: string } | null;
  /** A new message dropped the suspended tasks: branches waiting on approvals are sent again. */
  redispatchAwaiting: boolean;
  /** The run hit a stopping error: a failed try is not retried. */
  stoppingError: boolean;
}

/**
 * Joins one step in progress with its branch (the Supervisor's join of branches running side
 * by side): a settled branch completes, fails, retries or ends its step; a branch still
 * working is resumed or left alone.
 */
export function joinBranch(step: PlanStep, b: StepBranch | undefined, ctx: JoinContext): BranchJoin {
  if (!b && ctx.isHuman(step)) return ctx.humanAnswer?.step_id === step.id ? { kind: "answered", text: ctx.humanAnswer.text } : { kind: "ask" };
  if (!b) return { kind: "start" };
  if (b.phase === "returned") return { kind: "continue" };
  if (b.phase === "awaiting_approval") return ctx.redispatchAwaiting ? { kind: "redispatch" } : { kind: "wait" };
  if (b.phase !== "done" || !b.output) return { kind: "wait" };
  if (b.output.ok) {
    const reviewed = reviewVerdict(b.output.text) === "changes_needed" ? reviewedStep(ctx.steps, step, ctx.isHuman) : null;
    if (reviewed && (step.revisions ?? 0) < MAX_REVISIONS) return { kind: "revise", reviewed };
    if (reviewed) return { kind: "revisions_exhausted", why: `the review still asks for changes after ${MAX_REVISIONS} revision${MAX_REVISIONS === 1 ? "" : "s"}:\n${b.output.text}` };
    return { kind: "complete" };
  }
  if (b.output.final) return { kind: "final", status: b.output.final };
  if (ctx.stoppingError || (b.approval_outcome && STOPS_STEP.includes(b.approval_outcome.decision))) return { kind: "fail" };
  if (step.tries < step.max_tries && !repeatsFailure(step, b)) return { kind: "retry" };
  return { kind: "exhausted" };
}

/** The pending steps whose dependencies are all completed, in plan order: ready to start. */
export function readySteps(steps: PlanStep[]): PlanStep[] {
  const done = new Set(steps.filter((s) => s.status === "completed").map((s) => s.id));
  return steps.filter((s) => s.status === "pending" && s.depends_on.every((d) => done.has(d)));
}

/**
 * The pending steps that need a step that will never complete (blocked, rejected, skipped,
 * or failed for good), transitively, in the order they are found, each with the step it
 * lost. The steps themselves are not changed.
 */
export function unreachableSteps(steps: PlanStep[]): { step: PlanStep; lost: PlanStep; lostStatus: PlanStep["status"] }[] {
  const status = new Map(steps.map((s) => [s.id, s.status]));
  const byId = new Map(steps.map((s) => [s.id, s]));
  const out: { step: PlanStep; lost: PlanStep; lostStatus: PlanStep["status"] }[] = [];
  let changed = true;
  while (changed) {
    changed = false;
    for (const step of steps.filter((s) => status.get(s.id) === "pending")) {
      const lost = step.depends_on.map((id) => byId.get(id)).find((d) => d && NOT_DONE.includes(status.get(d.id) ?? d.status));
      if (!lost) continue;
      out.push({ step, lost, lostStatus: status.get(lost.id) ?? lost.status });
      status.set(step.id, "skipped");
      changed = true;
    }
  }
  return out;
}

/**
 * The failed call a try ended on, as `tool:args_hash:output_hash` (the loop detector's
 * record of it); null when the try failed without a tool call failing (a model error).
 */
export function failedCall(b: StepBranch): string | null {
  const last = b.last_tool_result?.status === "error" ? b.tool_history.at(-1) : undefined;
  return last ? `${last.tool}:${last.args_hash}:${last.output_hash}` : null;
}

/**
 * True when this try failed on the very call, with the very error, the previous try failed
 * on: the call is deterministic, so further retries would fail the same way (and a costly
 * call, such as a script that runs to its deadline, would only be paid for again). The step
 * goes straight on to the new plan, then the question to the user (docs/runs.md).
 */
export function repeatsFailure(step: PlanStep, b: StepBranch): boolean {
  const call = failedCall(b);
  return call !== null && call === step.failed_call;
}

/**
 * The step a review judged: the latest completed agent step it depends on (a Human input
 * answer is never revised). Null when there is none, so the verdict is only reported.
 */
export function reviewedStep(steps: PlanStep[], review: PlanStep, isHuman: (s: PlanStep) => boolean): PlanStep | null {
  const deps = steps.filter((s) => review.depends_on.includes(s.id) && s.status === "completed" && !isHuman(s));
  return deps.sort((a, b) => b.index - a.index)[0] ?? null;
}
