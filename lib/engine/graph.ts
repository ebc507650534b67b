import type { BaseCheckpointSaver } from "@langchain/langgraph";
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
export function buildGraph(deps: EngineDeps, checkpointer: BaseCheckpointSaver) {
  // Branch nodes take a BranchTask (the Send payload), not the graph state.
  const branch = (fn: unknown) => fn as (state: typeof GraphState.State) => Promise<Command>;
  return new StateGraph(GraphState)
    .addNode("router", routerNode(deps), { ends: ["approval_handler", "await_approval", "supervisor", "finalizer", "planner"] })
    .addNode("planner", plannerNode(deps))
    .addNode("supervisor", supervisorNode(deps), { ends: ["executor", "await_approval", "finalizer", "planner"] })
    .addNode("executor", branch(executorNode(deps)), { ends: ["risk_gate", "supervisor"] })
    .addNode("risk_gate", branch(riskGateNode(deps)), { ends: ["tools", "await_approval", "interpreter"] })
    .addNode("await_approval", branch(awaitApprovalNode()), { ends: ["approval_handler"] })
    .addNode("approval_handler", branch(approvalHandlerNode(deps)), { ends: ["tools", "supervisor", "await_approval", "risk_gate"] })
    .addNode("tools", branch(toolsNode(deps)), { ends: ["interpreter"] })
    .addNode("interpreter", branch(interpreterNode()), { ends: ["supervisor"] })
    .addNode("finalizer", finalizerNode(deps), { ends: [END, "planner"] })
    .addEdge(START, "router")
    .addEdge("planner", "supervisor")
    .compile({ checkpointer });
}

/** The compiled graph type. */
export type PhylacteryGraph = ReturnType<typeof buildGraph>;
