import { Send } from "@langchain/langgraph";
import type { AgentIdentity, BranchTask, GraphUpdate, StepBranch } from "./state";

/** Nodes a step's branch moves through (docs/architecture.md#the-graph). */
export type BranchNode = "executor" | "risk_gate" | "await_approval" | "approval_handler" | "tools" | "interpreter";

/** A branch's fields with no tool call in flight: nothing proposed, awaited or decided. */
export const NO_CALL = {
  proposed_tool: null,
  last_tool_result: null,
  awaiting_approval: false,
  approval_id: null,
  approval_request: null,
  approval_outcome: null,
} as const satisfies Partial<StepBranch>;

/** A fresh branch for a step delegated to `agent`. */
export function newBranch(stepId: string, agent: AgentIdentity): StepBranch {
  return {
    step_id: stepId,
    agent,
    phase: "running",
    executor_messages: [],
    ...NO_CALL,
    output: null,
    tool_history: [],
  };
}

/** The state update that mirrors a branch into the `branches` map. */
export function mirror(branch: StepBranch): GraphUpdate {
  return { branches: { [branch.step_id]: branch } };
}

/**
 * Sends the branch on to its next node (LangGraph `Send`: the payload is the node's input).
 * The payload is stored twice per super-step (the task's pending write, then the tasks
 * channel), so it carries the whole plan only where a node reads it: the Executor's first
 * turn of a try (the step's context: the results of the steps it depends on, the step count).
 * Every other hop carries the plan with the branch's own step alone (docs/architecture.md#state-and-channels).
 */
export function sendBranch(node: BranchNode, task: BranchTask, branch: StepBranch): Send {
  const whole = node === "executor" && branch.executor_messages.length === 0;
  const plan = whole ? task.plan : { ...task.plan, steps: task.plan.steps.filter((s) => s.id === branch.step_id) };
  return new Send(node, { ...task, plan, branch } satisfies BranchTask);
}

/** The plan step a branch works on. */
export function stepOf(task: BranchTask) {
  return task.plan.steps.find((s) => s.id === task.branch.step_id);
}
