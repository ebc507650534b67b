import type { BaseCheckpointSaver, LangGraphRunnableConfig } from "@langchain/langgraph";
import { type Command, END, START, StateGraph } from "@langchain/langgraph";
import type { EngineDeps } from "./deps";
import { approvalHandlerNode } from "./nodes/approval-handler";
import { awaitApprovalNode } from "./nodes/await-approval";
import { executorNode } from "./nodes/executor";
import { finalizerNode } from "./nodes/finalizer";
import { interpreterNode } from "./nodes/interpreter";
import { plannerNode } from "./nodes/planner";
import { riskGateNode } from "./nodes/risk-gate";
import { routerNode } from "./nodes/router";
import { supervisorNode } from "./nodes/supervisor";
import { toolsNode } from "./nodes/tools";
import { GraphState } from "./state";

/**
 * Builds the supervisor StateGraph (docs/architecture.md#the-graph) for one compiled flow and
 * compiles it with a checkpointer. Routing nodes return `Command({ goto })`; their possible
 * targets are declared with `ends` so the graph's shape is known before it runs:
 *
 * Each step in progress runs in its own branch (LangGraph `Send`, payload = BranchTask), so
 * steps whose dependencies are done run side by side; the Supervisor joins them.
 *
 * START -> Router -> {ApprovalHandler (chat decision) | Supervisor | Finalizer | Planner}
 * Planner -> Supervisor -> {Executor | Finalizer | AwaitApproval | Planner (re-plan)}
 * Executor -> {RiskGate | Supervisor}; RiskGate -> {Tools | AwaitApproval | Interpreter}
 * AwaitApproval (interrupt) -> ApprovalHandler -> {Tools | Supervisor | AwaitApproval}
 * Tools -> Interpreter -> Supervisor; Finalizer -> END, or (a question, interrupt) -> Planner
 */
export function buildGraph(deps: EngineDeps | DepsOf, checkpointer: BaseCheckpointSaver) {
  // Branch nodes take a BranchTask (the Send payload), not the graph state.
  const branch = (fn: unknown) => fn as (state: typeof GraphState.State) => Promise<Command>;
  // A node made of the run's services: fixed ones, or those the run's config carries (a cached graph).
  const bind = <A, R>(make: (d: EngineDeps) => (arg: A, config?: LangGraphRunnableConfig) => R) =>
    typeof deps === "function" ? (arg: A, config?: LangGraphRunnableConfig): R => make(deps(config))(arg, config) : make(deps);
  return new StateGraph(GraphState)
    .addNode("router", bind(routerNode), { ends: ["approval_handler", "await_approval", "supervisor", "finalizer", "planner"] })
    .addNode("planner", bind(plannerNode))
    .addNode("supervisor", bind(supervisorNode), { ends: ["executor", "await_approval", "finalizer", "planner"] })
    .addNode("executor", branch(bind(executorNode)), { ends: ["risk_gate", "supervisor"] })
    .addNode("risk_gate", branch(bind(riskGateNode)), { ends: ["tools", "await_approval", "interpreter"] })
    .addNode("await_approval", branch(awaitApprovalNode()), { ends: ["approval_handler"] })
    .addNode("approval_handler", branch(bind(approvalHandlerNode)), { ends: ["tools", "supervisor", "await_approval", "risk_gate"] })
    .addNode("tools", branch(bind(toolsNode)), { ends: ["interpreter"] })
    .addNode("interpreter", branch(interpreterNode()), { ends: ["supervisor"] })
    .addNode("finalizer", bind(finalizerNode), { ends: [END, "planner"] })
    .addEdge(START, "router")
    .addEdge("planner", "supervisor")
    .compile({ checkpointer });
}

/** The services of the run a config belongs to (a graph compiled once, shared by runs: lib/engine/graph-cache.ts). */
export type DepsOf = (config?: LangGraphRunnableConfig) => EngineDeps;

/** The compiled graph type. */
export type PhylacteryGraph = ReturnType<typeof buildGraph>;
