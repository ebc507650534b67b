import { randomUUID } from "node:crypto";
import { Command, type LangGraphRunnableConfig, Overwrite } from "@langchain/langgraph";
import { routeTask } from "../../flow/route-task";
import { parseApprovalCommand } from "../approval-command";
import type { EngineDeps } from "../deps";
import { emit, emitPlan, iso } from "../emit";
import { classifyIntent } from "../intent";
import { directedPlan } from "../plan-factory";
import { mirror, sendBranch } from "../branch";
import type { GraphStateValue, GraphUpdate, Handoff, StepBranch } from "../state";

/** Where the Router sends a run (docs/architecture.md#the-graph). */
export type RouterTarget = "approval_handler" | "supervisor" | "finalizer" | "planner";

/**
 * Router (deterministic, no LLM). While awaiting approval, a last message that
 * matches the strict APROBAR/RECHAZAR (APPROVE/REJECT) regexes goes to the
 * ApprovalHandler and any other reply to the Supervisor; awaiting user input -> Supervisor;
 * otherwise the intent decides: conversation -> Finalizer, task without a plan (or after a
 * finished one) -> Planner, unless a Router/condition route matches it (one step for the
 * route's agent, capability_match handoff -> Supervisor), task with a plan in progress ->
 * Supervisor. In directed mode
 * (the user picked an agent) routing and planning are bypassed: the task becomes a one-step
 * plan for that agent -> Supervisor. Only the thread's own user messages reach this node;
 * tool outputs and model text never do.
 */
export function routerNode(deps: EngineDeps) {
  return (state: GraphStateValue, config?: LangGraphRunnableConfig): Command => route(deps, state, config);
}

function route(deps: EngineDeps, state: GraphStateValue, config?: LangGraphRunnableConfig): Command {
  const last = [...state.messages].reverse().find((m) => m.role === "user")?.content ?? "";
  const waiting = Object.values(state.branches).filter((b) => b.phase === "awaiting_approval" && b.approval_id);
  if (waiting.length > 0 && state.plan) {
    const cmd = parseApprovalCommand(last);
    if (cmd) {
      // The decision goes to the branch of the call it names (or, when none matches, to the
      // first waiting one, whose ApprovalHandler refuses it and keeps waiting).
      const branch = waiting.find((b) => b.approval_id === cmd.approvalId) ?? (waiting[0] as StepBranch);
      const next: StepBranch = {
        ...branch,
        phase: "running",
        approval_request: {
          kind: cmd.kind,
          approval_id: cmd.approvalId,
          token: cmd.kind === "approve" ? cmd.token : null,
          via: "chat",
          decided_by: state.user_id,
          reason: cmd.kind === "reject" ? "rejected in chat" : null,
        },
      };
      const task = { thread_id: state.thread_id, user_id: state.user_id, plan: state.plan, branch: next };
      // The other waiting branches lost their suspended tasks to this message: re-suspend them.
      const others = waiting.filter((b) => b.step_id !== branch.step_id).map((b) => sendBranch("await_approval", { ...task, branch: b }, b));
      return new Command({ update: mirror(next), goto: [sendBranch("approval_handler", task, next), ...others] });
    }
    return new Command({ update: { redispatch_awaiting: true }, goto: "supervisor" });
  }
  if (state.awaiting_user_input) return new Command({ update: { awaiting_user_input: false }, goto: "supervisor" });
  if (state.agent_mode === "directed" && state.directed_agent_id) {
    const plan = directedPlan(deps.flow, state.directed_agent_id, last, iso(deps.now()));
    if (plan) {
      emitPlan(config, deps.flow, plan);
      return new Command({ update: { ...fresh("task"), plan, lifecycle: "EXECUTION_PREPARE" }, goto: "supervisor" });
    }
  }
  // Classified before the graph by the run service (and recorded); classified here otherwise.
  const intent = state.intent ?? classifyIntent(last);
  if (intent === "conversation") return new Command({ update: { intent, error: null, lifecycle: "INIT" }, goto: "finalizer" });
  if (state.plan && state.plan.status === "executing") return new Command({ update: { intent }, goto: "supervisor" });
  const routed = routeTask(deps.flow.routes, last);
  const plan = routed ? directedPlan(deps.flow, routed.agentId, last, iso(deps.now())) : null;
  if (routed && plan) {
    // A Router/condition node matched: one step for its agent, no Planner (docs/architecture.md#flows-and-compilation).
    const agent = deps.flow.agents.find((a) => a.id === routed.agentId);
    const condition = routed.match === "contains" ? `contains "${routed.value}"` : `matches /${routed.value}/i`;
    const handoff: Handoff = {
      id: randomUUID(),
      from: routed.routerId,
      to: routed.agentId,
      reason: "capability_match",
      explanation: `Route ${routed.index + 1} of ${routed.routerName}: the task ${condition}`,
      step_id: plan.steps[0]?.id ?? "",
      timestamp: plan.created_at,
    };
    emitPlan(config, deps.flow, plan);
    emit(config, {
      type: "data-handoff",
      id: handoff.id,
      data: {
        from: routed.routerId,
        to: routed.agentId,
        agentName: agent?.name ?? routed.agentId,
        icon: agent?.icon ?? "🤖",
        color: agent?.color ?? "#5b3cc4",
        reason: handoff.reason,
        stepId: handoff.step_id,
      },
    });
    return new Command({ update: { ...fresh(intent), plan, handoffs: [handoff], lifecycle: "EXECUTION_PREPARE" }, goto: "supervisor" });
  }
  return new Command({ update: fresh(intent), goto: "planner" });
}

/** The state of a new task: no plan, no pending call, counters reset. */
function fresh(intent: "task" | "conversation"): GraphUpdate {
  return {
    intent,
    plan: null,
    branches: new Overwrite({}),
    redispatch_awaiting: false,
    awaiting_user_input: false,
    error: null,
    final_answer: null,
    iterations: 0,
    replans: 0,
    replan_reason: null,
    question: null,
    cancelled: null,
    lifecycle: "CONTEXT_BUILD",
  };
}
