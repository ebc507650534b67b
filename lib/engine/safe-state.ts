import type { GraphStateValue, Lifecycle, StepBranch } from "./state";

/**
 * Checkpoint state made safe to show and to copy (docs/architecture.md#time-travel). A checkpoint holds
 * the graph state exactly as the nodes left it (lib/engine/state.ts), which includes the
 * one-time approval token of a decision in flight (`branches[*].approval_request.token`) and,
 * when a user approved from the chat, the token inside their `APPROVE <id> <token>` message.
 * Neither may leave the server through the time-travel API, nor travel into a fork.
 */

export { isPlainObject, mapDeep, REDACTED, redactSecrets, withoutLiveTokens } from "../events/redact";
import { isPlainObject, redactSecrets } from "../events/redact";

/** A short view of a state for the checkpoint list. */
export interface StateSummary {
  lifecycle: Lifecycle | null;
  plan: {
    status: string;
    stepsTotal: number;
    stepsCompleted: number;
    /** The step in progress, else the one at `current_step_index`. */
    current: { index: number; task: string; status: string; agentId: string } | null;
  } | null;
  /** A step's tool call waits for a decision (a branch suspended at AwaitApproval). */
  awaitingApproval: boolean;
  /** The run asked the user how to proceed and waits for the answer. */
  awaitingInput: boolean;
  messages: number;
  /** The last chat message, cut to 120 characters (tokens redacted). */
  lastMessage: { role: string; content: string } | null;
  /** The structured error that stopped the run (its code), if any. */
  errorCode: string | null;
}

/** Branches waiting for an approval decision (docs/architecture.md#interrupts). */
export function waitingBranches(branches: Record<string, StepBranch> | undefined): StepBranch[] {
  return Object.values(branches ?? {}).filter((b) => b.phase === "awaiting_approval" || b.awaiting_approval);
}

/**
 * Summarises checkpoint values (possibly partial: channels never written are absent).
 * @param values the StateSnapshot's values.
 * @param interrupts the snapshot's pending interrupt values (question or approval payloads).
 */
export function summarizeState(values: Partial<GraphStateValue>, interrupts: unknown[] = []): StateSummary {
  const plan = values.plan ?? null;
  const steps = plan?.steps ?? [];
  const current = steps.find((s) => s.status === "in_progress") ?? steps.find((s) => s.index === plan?.current_step_index) ?? null;
  const last = values.messages?.at(-1);
  const asked = interrupts.some((i) => isPlainObject(i) && i.kind === "question");
  return {
    lifecycle: values.lifecycle ?? null,
    plan: plan
      ? {
          status: plan.status,
          stepsTotal: steps.length,
          stepsCompleted: steps.filter((s) => s.status === "completed").length,
          current: current ? { index: current.index, task: current.task, status: current.status, agentId: current.agent_id } : null,
        }
      : null,
    awaitingApproval: waitingBranches(values.branches).length > 0,
    awaitingInput: Boolean(values.awaiting_user_input) || asked,
    messages: values.messages?.length ?? 0,
    lastMessage: last ? { role: last.role, content: redactSecrets(String(last.content)).slice(0, 120) } : null,
    errorCode: values.error?.code ?? null,
  };
}
