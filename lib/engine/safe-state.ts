import { redactCommandTokens, redactTokenShapes } from "../approvals/token-redaction";
import type { GraphStateValue, Lifecycle, StepBranch } from "./state";

/**
 * Checkpoint state made safe to show and to copy (docs/architecture.md#time-travel). A checkpoint holds
 * the graph state exactly as the nodes left it (lib/engine/state.ts), which includes the
 * one-time approval token of a decision in flight (`branches[*].approval_request.token`) and,
 * when a user approved from the chat, the token inside their `APPROVE <id> <token>` message.
 * Neither may leave the server through the time-travel API, nor travel into a fork.
 */

/** What a redacted secret reads as. */
export const REDACTED = "[redacted]";

/** Keys whose string values are secrets wherever they appear (approval tokens first of all). */
const SECRET_KEY = /(^|_)(token|secret|password|api_?key)$/i;

/** True for `{}`-style objects (checkpoint values are plain JSON; class instances are left alone). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * Maps a JSON-like value deeply: `fn` sees every property (key, value) of every plain object
 * and every string; what it returns replaces the value. Arrays and plain objects are copied,
 * anything else (class instances) is kept as it is.
 */
export function mapDeep(value: unknown, fn: { key?: (key: string, v: unknown) => unknown; text?: (s: string) => string }): unknown {
  if (typeof value === "string") return fn.text ? fn.text(value) : value;
  if (Array.isArray(value)) return value.map((v) => mapDeep(v, fn));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const kept = fn.key ? fn.key(k, v) : v;
    out[k] = kept === v ? mapDeep(v, fn) : kept;
  }
  return out;
}

/**
 * Removes secrets from checkpoint values, at any depth: every non-empty string under a key
 * named like a secret (`token`, `*_token`, `secret`, `password`, `api_key`) becomes
 * {@link REDACTED}; in every text, the token of every `APPROVE|APROBAR <id> <token>` is
 * replaced (the approval id stays), and so is every word shaped like an approval token
 * (43 base64url characters), in any form it was typed in: look-alike or fullwidth letters,
 * any case, token before id (lib/approvals/token-redaction.ts). This is the replay's
 * defence for text stored before typed tokens were redacted on the way in
 * (lib/engine/typed-tokens.ts). Numbers under such keys (token counts) are kept.
 * @returns a copy; the input is not changed.
 */
export function redactSecrets<T>(value: T): T {
  return mapDeep(value, {
    key: (k, v) => (typeof v === "string" && v !== "" && SECRET_KEY.test(k) ? REDACTED : v),
    text: (s) => redactTokenShapes(s, REDACTED),
  }) as T;
}

/**
 * A run event as it may be stored (docs/security.md "Secrets at rest"): live approval
 * tokens are never written to the database. An approval card's `token` is blanked (the run
 * view recomputes it from the challenge for those who may decide), and the token of an
 * `APPROVE <id> <token>` typed into the chat is redacted.
 * @returns a copy; the input is not changed.
 */
export function withoutLiveTokens<T>(data: T): T {
  return mapDeep(data, {
    key: (k, v) => (k === "token" && typeof v === "string" ? "" : v),
    text: (s) => redactCommandTokens(s, REDACTED),
  }) as T;
}

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
