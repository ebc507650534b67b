import { TASKS } from "@langchain/langgraph-checkpoint";
import type { ModelMessage } from "ai";
import { isPlainObject, mapDeep, redactSecrets } from "./safe-state";
import { NO_CALL } from "./branch";
import type { StepBranch } from "./state";

/**
 * The channel values a fork starts from (docs/architecture.md#time-travel): the origin checkpoint's
 * values rewritten so that the new thread owns them. Pure; lib/runs/fork-thread.ts stores
 * the result as the fork's first checkpoint.
 *
 * What changes, and why:
 * - `thread_id` / `user_id`, wherever they appear (state channels, the `__start__` input of
 *   an input checkpoint, the BranchTask payloads of pending `Send`s): the nodes take the
 *   thread id from there for the sandbox workspace, audit entries, evicted blobs and
 *   approval challenges, so a fork that kept the origin's id would act on the origin.
 * - Calls that wait on an approval, or carry a decision not yet applied, or were approved
 *   and wait to run (docs/architecture.md#approvals): the challenge is bound to the origin thread (its id,
 *   thread and user are three of the seven factors), so nothing decided there may run here.
 *   The branch is rewound to just before the proposal (the proposal message dropped, the
 *   approval fields cleared) and its pending `Send` goes to the Executor instead: on
 *   continue, the agent proposes the call again and the RiskGate issues a new challenge
 *   bound to the fork. A branch without a pending `Send` is marked `returned`, which the
 *   Supervisor hands to the Executor the same way.
 * - Approval tokens and secrets are redacted (see redactSecrets).
 * - `run_started_at` is 0: the origin's run start would put the fork over the flow's time
 *   limit; the next message or decision starts the clock again (the Supervisor skips the
 *   time check while it is 0; the iteration limit still applies).
 * - `blob:<id>` pointers of evicted outputs are renamed to the fork's copies.
 */

/** A call that waited on the origin's approval and will be proposed again in the fork. */
export interface DroppedCall {
  stepId: string;
  tool: string | null;
  /** The origin's challenge id (never decidable from the fork). */
  approvalId: string | null;
}

/** Who the fork's values belong to. */
export interface ForkTarget {
  originThreadId: string;
  forkThreadId: string;
  /** The user who forks (owns the new thread). */
  userId: string;
  /** Origin blob id -> the fork's copy, for `blob:<id>` pointers. */
  blobIds?: Map<string, string>;
}

/** Approval outcomes after which the tool runs (the origin's approval, not the fork's). */
const APPROVED = new Set(["approved", "edited"]);

/** A pending `Send` as a checkpoint stores it (`{ node, args }`; args = BranchTask). */
type Packet = { node: string; args: unknown } & Record<string, unknown>;

const isPacket = (p: unknown): p is Packet => isPlainObject(p) && typeof p.node === "string" && p.args !== undefined;
const stepIdOf = (p: Packet): string | null => {
  const branch = isPlainObject(p.args) ? p.args.branch : undefined;
  return isPlainObject(branch) && typeof branch.step_id === "string" ? branch.step_id : null;
};

/** True when the branch's call is bound to an approval of the origin thread. */
function approvalBound(b: StepBranch, pendingNode: string | undefined): boolean {
  if (b.phase === "done") return false;
  if (b.phase === "awaiting_approval" || b.awaiting_approval || b.approval_request) return true;
  if (pendingNode === "await_approval" || pendingNode === "approval_handler") return true;
  return pendingNode === "tools" && Boolean(b.approval_outcome && APPROVED.has(b.approval_outcome.decision));
}

/** The branch as it was before its agent proposed the call. */
function rewind(b: StepBranch, phase: "running" | "returned"): StepBranch {
  const callId = b.proposed_tool?.tool_call_id;
  const last = b.executor_messages.at(-1) as ModelMessage | undefined;
  const proposedLast = last?.role === "assistant" && Array.isArray(last.content) && last.content.some((c) => c.type === "tool-call" && (!callId || c.toolCallId === callId));
  return {
    ...b,
    phase,
    executor_messages: proposedLast ? b.executor_messages.slice(0, -1) : b.executor_messages,
    ...NO_CALL,
  };
}

/**
 * Rewrites a checkpoint's channel values for a fork (see the module comment).
 * @param channelValues `checkpoint.channel_values` of the origin (not changed).
 * @returns the fork's channel values and the approval-bound calls that were dropped.
 */
export function forkChannelValues(channelValues: Record<string, unknown>, target: ForkTarget): { values: Record<string, unknown>; dropped: DroppedCall[] } {
  const originUser = typeof channelValues.user_id === "string" ? channelValues.user_id : null;
  const blobIds = target.blobIds ?? new Map<string, string>();
  const owned = mapDeep(channelValues, {
    key: (k, v) => {
      if (k === "thread_id" && v === target.originThreadId) return target.forkThreadId;
      if (k === "user_id" && typeof v === "string" && v !== "" && (originUser === null || v === originUser)) return target.userId;
      return v;
    },
    text: (s) => (blobIds.size === 0 ? s : s.replace(/blob:([A-Za-z0-9_-]{6,64})/g, (m, id: string) => (blobIds.has(id) ? `blob:${blobIds.get(id)}` : m))),
  }) as Record<string, unknown>;
  const values = redactSecrets(owned);
  if ("run_started_at" in values) values.run_started_at = 0;

  const packets = Array.isArray(values[TASKS]) ? (values[TASKS] as unknown[]) : [];
  const pendingNode = new Map<string, string>();
  for (const p of packets) {
    const stepId = isPacket(p) ? stepIdOf(p) : null;
    if (isPacket(p) && stepId) pendingNode.set(stepId, p.node);
  }
  const branches = isPlainObject(values.branches) ? (values.branches as Record<string, StepBranch>) : {};
  const dropped: DroppedCall[] = [];
  const rewound = new Map<string, StepBranch>();
  for (const [stepId, b] of Object.entries(branches)) {
    if (!approvalBound(b, pendingNode.get(stepId))) continue;
    dropped.push({ stepId, tool: b.proposed_tool?.name ?? null, approvalId: b.approval_id ?? b.approval_request?.approval_id ?? null });
    rewound.set(stepId, rewind(b, pendingNode.has(stepId) ? "running" : "returned"));
  }
  if (rewound.size === 0) return { values, dropped };
  values.branches = { ...branches, ...Object.fromEntries(rewound) };
  if (packets.length > 0) {
    values[TASKS] = packets.map((p) => {
      const stepId = isPacket(p) ? stepIdOf(p) : null;
      const b = stepId ? rewound.get(stepId) : undefined;
      if (!isPacket(p) || !b || !isPlainObject(p.args)) return p;
      return { ...p, node: "executor", args: { ...p.args, branch: b } };
    });
  }
  return { values, dropped };
}

/** The ids of every `blob:<id>` pointer in the values (evicted outputs the fork needs). */
export function blobPointers(channelValues: Record<string, unknown>): string[] {
  const ids = new Set<string>();
  mapDeep(channelValues, {
    text: (s) => {
      for (const m of s.matchAll(/blob:([A-Za-z0-9_-]{6,64})/g)) if (m[1]) ids.add(m[1]);
      return s;
    },
  });
  return [...ids];
}
