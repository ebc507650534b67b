import type { HumanInterrupt } from "@langchain/langgraph/prebuilt";
import type { ApprovalInterrupt } from "../engine/nodes/await-approval";
import type { QuestionInterrupt } from "../engine/nodes/finalizer";
import type { OutcomeUnknownInterrupt } from "../engine/nodes/tools";
import { isPlainObject, redactSecrets } from "../engine/safe-state";

/**
 * Interrupts as the LangGraph Platform API publishes them (docs/langgraph-api.md#interrupts):
 * `thread.interrupts` groups them by task id, `state.interrupts` and `state.tasks[].interrupts`
 * list them. Every value is a list of one `HumanInterrupt`, the shape Agent Inbox reads.
 */

/** A Platform interrupt: its id (what a resume names) and its value. */
export interface PlatformInterrupt {
  id: string;
  value: unknown;
}

/** What an approval interrupt carries besides the call: the challenge a decision answers. */
export interface ApprovalTicket {
  id: string;
  args_hash: string;
  /** ISO-8601, from the Approval row. */
  expires_at: string | null;
  /** The one-time token, only for a caller who may decide a still pending approval. */
  token?: string;
}

/** An approval as the Platform API publishes it: the HumanInterrupt with its challenge in `action_request.approval`. */
export type PlatformApprovalInterrupt = Omit<HumanInterrupt, "action_request"> & {
  action_request: HumanInterrupt["action_request"] & { approval: ApprovalTicket };
};

/**
 * What the caller may know of one approval: its expiry and, when they may decide it and it is
 * still pending, its token. Built from the Approval rows by lib/langgraph-api/approval-tickets.ts.
 */
export type TicketLookup = (approvalId: string) => { expires_at: string | null; token?: string } | undefined;

/** The interrupts of a LangGraph state snapshot's tasks (task id, interrupt id and value). */
export interface SnapshotTasks {
  tasks: readonly { id: string; interrupts: readonly { id?: string; value?: unknown }[] }[];
}

const isApproval = (v: unknown): v is ApprovalInterrupt => isPlainObject(v) && typeof v.approval_id === "string" && isPlainObject(v.action_request) && isPlainObject(v.config);

/**
 * One approval interrupt value (`[HumanInterrupt & { approval_id, args_hash, step_id }]`, lib/engine/nodes/await-approval.ts)
 * as published: the call with its arguments, and `action_request.approval` = `{ id, args_hash,
 * expires_at, token? }`. Clients echo the `action_request` they were shown as their
 * HumanResponse's `args`, so the token travels back with the decision.
 */
export function publishApproval(stored: ApprovalInterrupt, ticket: ReturnType<TicketLookup>): PlatformApprovalInterrupt {
  const safe = redactSecrets(stored);
  const approval: ApprovalTicket = { id: stored.approval_id, args_hash: stored.args_hash, expires_at: ticket?.expires_at ?? null, ...(ticket?.token ? { token: ticket.token } : {}) };
  return {
    action_request: { action: safe.action_request.action, args: safe.action_request.args, approval },
    config: safe.config,
    ...(safe.description !== undefined ? { description: safe.description } : {}),
  };
}

/** A question (the run asks the user how to go on, or a Human input step's prompt) as a HumanInterrupt: answer with a `response`. */
function publishQuestion(q: QuestionInterrupt): HumanInterrupt & QuestionInterrupt {
  return {
    ...q,
    action_request: { action: "answer_question", args: { question: q.question, ...(q.stepId ? { step_id: q.stepId } : {}) } },
    config: { allow_accept: false, allow_edit: false, allow_respond: true, allow_ignore: false },
    description: q.question,
  };
}

/** A side-effecting call whose outcome is unknown after a crash: accept runs it again, ignore skips it. */
function publishOutcome(o: OutcomeUnknownInterrupt): HumanInterrupt & OutcomeUnknownInterrupt {
  return {
    ...o,
    action_request: { action: o.tool, args: (isPlainObject(o.args) ? o.args : { value: o.args }) as Record<string, unknown> },
    config: { allow_accept: true, allow_edit: false, allow_respond: false, allow_ignore: true },
    description: o.description,
  };
}

/**
 * One stored interrupt value as published: approvals as {@link publishApproval}, questions and
 * outcome-unknown choices as a HumanInterrupt that keeps their stored fields, anything else as
 * stored. Secrets (tokens typed into a chat, `*_token` keys) are redacted; the only token that
 * can appear is the approval's own, from `tickets`.
 * @returns a list (Agent Inbox reads `value[0]`), except for values of unknown shape.
 */
export function publishInterruptValue(value: unknown, tickets: TicketLookup): unknown {
  const list = Array.isArray(value) ? value : [value];
  if (list.length > 0 && list.every(isApproval)) return list.map((a) => publishApproval(a, tickets(a.approval_id)));
  const safe = redactSecrets(value);
  if (isPlainObject(safe) && safe.kind === "question" && typeof safe.question === "string") return [publishQuestion(safe as unknown as QuestionInterrupt)];
  if (isPlainObject(safe) && safe.kind === "outcome_unknown" && typeof safe.tool === "string") return [publishOutcome(safe as unknown as OutcomeUnknownInterrupt)];
  return safe;
}

/**
 * A snapshot's pending interrupts, published: by task id (`thread.interrupts`; tasks without
 * interrupts are left out) and as one list (`state.interrupts`), in task order.
 */
export function platformInterrupts(snapshot: SnapshotTasks, tickets: TicketLookup): { byTask: Record<string, PlatformInterrupt[]>; all: PlatformInterrupt[] } {
  const byTask: Record<string, PlatformInterrupt[]> = {};
  const all: PlatformInterrupt[] = [];
  for (const task of snapshot.tasks) {
    const published = task.interrupts.map((i) => ({ id: i.id ?? "", value: publishInterruptValue(i.value, tickets) }));
    if (published.length === 0) continue;
    byTask[task.id] = published;
    all.push(...published);
  }
  return { byTask, all };
}

/** The approval ids a snapshot's interrupts name, to look their rows up once. */
export function approvalIdsOf(snapshot: SnapshotTasks): string[] {
  const ids = snapshot.tasks.flatMap((t) => t.interrupts.flatMap((i) => (Array.isArray(i.value) ? i.value.filter(isApproval).map((a) => a.approval_id) : [])));
  return [...new Set(ids)];
}
