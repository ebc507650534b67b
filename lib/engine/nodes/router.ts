import { Command } from "@langchain/langgraph";
import { parseApprovalCommand } from "../approval-command";
import { classifyIntent } from "../intent";
import type { GraphStateValue, GraphUpdate } from "../state";

/** Where the Router sends a run (SPEC.md 2). */
export type RouterTarget = "approval_handler" | "supervisor" | "finalizer" | "planner";

/**
 * Router (SPEC.md 2; deterministic, no LLM). While awaiting approval, a last message that
 * matches the strict APROBAR/RECHAZAR (APPROVE/REJECT) regexes goes to the
 * ApprovalHandler and any other reply to the Supervisor; awaiting user input -> Supervisor;
 * otherwise the intent decides: conversation -> Finalizer, task without a plan (or after a
 * finished one) -> Planner, task with a plan in progress -> Supervisor. Only the thread's
 * own user messages reach this node; tool outputs and model text never do.
 */
export function routerNode(state: GraphStateValue): Command<RouterTarget> {
  const last = [...state.messages].reverse().find((m) => m.role === "user")?.content ?? "";
  if (state.awaiting_approval) {
    const cmd = parseApprovalCommand(last);
    if (cmd) {
      const update: GraphUpdate = {
        approval_request: {
          kind: cmd.kind,
          approval_id: cmd.approvalId,
          token: cmd.kind === "approve" ? cmd.token : null,
          via: "chat",
          decided_by: state.user_id,
          reason: cmd.kind === "reject" ? "rejected in chat" : null,
        },
      };
      return new Command({ update, goto: "approval_handler" });
    }
    return new Command({ goto: "supervisor" });
  }
  if (state.awaiting_user_input) return new Command({ update: { awaiting_user_input: false }, goto: "supervisor" });
  const intent = classifyIntent(last);
  if (intent === "conversation") return new Command({ update: { intent, lifecycle: "INIT" }, goto: "finalizer" });
  if (state.plan && state.plan.status === "executing") return new Command({ update: { intent }, goto: "supervisor" });
  const fresh: GraphUpdate = {
    intent,
    plan: null,
    step_output: null,
    executor_messages: [],
    proposed_tool: null,
    last_tool_result: null,
    approval_outcome: null,
    approval_request: null,
    error: null,
    final_answer: null,
    iterations: 0,
    replans: 0,
    replan_reason: null,
    question: null,
    tool_history: [],
    lifecycle: "CONTEXT_BUILD",
  };
  return new Command({ update: fresh, goto: "planner" });
}
