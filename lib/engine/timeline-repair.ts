import type { FlowSpec } from "../flow/compile";
import { stepView } from "./emit";
import type { GraphStateValue, PlanStep } from "./state";
import type { RunChunk } from "../events/ui-parts";

/**
 * Timeline repair after a crash (docs/durability.md "Events after a crash"). LangGraph stores a
 * node's writes as soon as the node ends, and a checkpoint after each step, while the node's
 * events reach the database only when the run's stream consumer stores them. A worker killed
 * in between leaves a state that moved on and a timeline that did not: the resumed run never
 * runs that node again, so it never emits those events. The state is the truth; this module
 * finds which parts the timeline lacks to say what the state says.
 *
 * The other way round, the timeline can be ahead of the state: a node's events reach the
 * stream while it runs, so the consumer may have stored them (a step's end, the plan's) before
 * LangGraph stored the node's writes. The resumed run runs that node again and emits the same
 * events, which are not stored twice. Telling the older state there would leave that older
 * status as the timeline's last word, so a step or plan the timeline already took further (a
 * later try, or a later status in the same try) is left as it is.
 */

/** A stored run event of the thread, as read back: its name and its stored JSON. */
export interface StoredEventRow {
  type: string;
  data: string;
}

/** What the timeline last said of the plan, each step, the lifecycle and the answers. */
interface TimelineView {
  plans: Map<string, string>;
  /** Each step's last status, and its tries when the part said (parts always do now). */
  steps: Map<string, { status: string; tries?: number }>;
  lifecycle: string | null;
  answers: Set<string>;
}

function viewOf(rows: StoredEventRow[]): TimelineView {
  const view: TimelineView = { plans: new Map(), steps: new Map(), lifecycle: null, answers: new Set() };
  for (const row of rows) {
    let parsed: { type?: string; id?: string; data?: { planId?: string; id?: string; status?: string; to?: string; tries?: number } };
    try {
      parsed = JSON.parse(row.data);
    } catch {
      continue;
    }
    const d = parsed.data;
    if (parsed.type === "data-plan" && d?.planId && d.status) view.plans.set(d.planId, d.status);
    else if (parsed.type === "data-step" && d?.id && d.status) view.steps.set(d.id, { status: d.status, ...(typeof d.tries === "number" ? { tries: d.tries } : {}) });
    else if (parsed.type === "data-lifecycle" && d?.to) view.lifecycle = d.to;
    else if (parsed.type === "text" && parsed.id) view.answers.add(parsed.id);
  }
  return view;
}

/** How far a status is within one try of a step: not started, started, ended. */
const stepRank = (status: string) => (status === "pending" ? 0 : status === "in_progress" ? 1 : 2);
/** How far a plan's status is: being made, being carried out, ended. */
const planRank = (status: string) => (status === "planning" ? 0 : status === "executing" ? 1 : 2);

/** The timeline told more of a step than the state holds (a later try, or a later status in the same try). */
function stepToldAhead(told: { status: string; tries?: number }, state: PlanStep): boolean {
  if (told.tries === undefined) return false;
  return told.tries > state.tries || (told.tries === state.tries && stepRank(told.status) > stepRank(state.status));
}

/** The step event a step's status is told with (as the Supervisor emits it). */
function stepEvent(status: PlanStep["status"]): "plan_step_started" | "plan_step_completed" | "plan_step_failed" {
  if (status === "completed") return "plan_step_completed";
  if (status === "in_progress") return "plan_step_started";
  return "plan_step_failed";
}

/**
 * The parts that bring a thread's stored timeline in line with the run's state, in timeline
 * order: each step whose last stored status differs (a pending step with no part is fine,
 * and so is one the timeline took further), the plan when its last stored status differs
 * (unless the timeline took it further), the final lifecycle transition when the last
 * stored one leads elsewhere, and the final answer when the state ended with one the timeline
 * never got. Empty when the timeline already says what the state says, so calling it again
 * after its parts are stored adds nothing.
 * @param rows the thread's stored events, oldest first.
 * @param runId the run that repairs (names the lifecycle part: `<runId>-repair-<to>`).
 * @param at ISO-8601 time of the repair.
 */
export function missingTimelineParts(rows: StoredEventRow[], v: Partial<GraphStateValue>, flow: FlowSpec, runId: string, at: string): RunChunk[] {
  const view = viewOf(rows);
  const out: RunChunk[] = [];
  const plan = v.plan;
  if (plan) {
    for (const step of plan.steps) {
      const told = view.steps.get(step.id);
      if (told === undefined ? step.status === "pending" : told.status === step.status || stepToldAhead(told, step)) continue;
      out.push({ type: "data-step", id: step.id, data: { ...stepView(flow, step), event: stepEvent(step.status) } });
    }
    const toldPlan = view.plans.get(plan.id);
    if (toldPlan !== plan.status && !(toldPlan !== undefined && planRank(toldPlan) > planRank(plan.status))) {
      out.push({ type: "data-plan", id: plan.id, data: { planId: plan.id, status: plan.status, steps: plan.steps.map((s) => stepView(flow, s)) } });
    }
  }
  const lifecycle = v.lifecycle;
  if (lifecycle && view.lifecycle !== null && view.lifecycle !== lifecycle) {
    out.push({ type: "data-lifecycle", id: `${runId}-repair-${lifecycle}`, data: { from: view.lifecycle, to: lifecycle, node: "recovery", at } });
  }
  const messages = v.messages ?? [];
  const last = messages.at(-1);
  if (v.final_answer && last?.role === "assistant" && last.content === v.final_answer) {
    // The Finalizer names its answer after the messages it was given (one fewer).
    const id = `final-${messages.length - 1}`;
    if (!view.answers.has(id)) out.push({ type: "text", id, text: v.final_answer });
  }
  return out;
}
