import type { ToolResultState } from "./state";
import type { IntentRow } from "../db/run-writes-sql";

/**
 * The durable record of side-effecting tool calls (docs/durability.md "Side effects"): what
 * the Tools node writes before and after it runs a call, so that a run resumed from its last
 * checkpoint (any node that was running when the process died runs again) never runs a
 * completed call twice, and asks a person when a call started but has no outcome.
 *
 * Which calls are recorded: every call of a tool that is not declared read-only, that is
 * whose `sideEffect` flag is true in the flow's tool registry (lib/tools/registry.ts: the
 * built-ins `write_file`, `delete_file`, `http_request`, `remember`; an MCP tool unless its
 * server marks it `readOnlyHint`, lib/mcp/definitions.ts) and every tool the registry does
 * not know (fail closed). Read-only calls run again after a crash: reading twice changes
 * nothing.
 *
 * Statuses of a record: `started` (intent committed, the call may be running or may have
 * died with the process), `completed` (the outcome is recorded; success or a tool error),
 * `retry` (a person, or the engine for a call it may safely run again, chose to run it
 * again; the next run claims it as a new attempt), `skipped` (a person chose to treat it as
 * not done). A call confirmed as done (by a person, or by what the workspace shows) becomes
 * `completed` with the confirmed outcome.
 */

/** What identifies one call: its thread and the model's tool call id. */
export interface ToolCallKey {
  threadId: string;
  toolCallId: string;
}

/** What is recorded before the call runs (the intent; its fields: lib/db/run-writes-sql.ts `IntentRow`). */
export type ToolCallIntent = IntentRow;

/** What is recorded after the call returned. */
export interface ToolCallOutcome {
  /** The gateway's status: a tool error is an outcome too (the call returned). */
  status: "success" | "error";
  /** The result as it entered the run's state (output at most 10,000 chars, or the evicted marker). */
  result: ToolResultState;
  errorCode: string | null;
  /** Wall-clock time of the call, ms. */
  durationMs: number;
}

/**
 * What {@link ToolExecutionStore.begin} found or did:
 * - run: the intent of `attempt` is committed; run the call now, then `finish` it;
 * - completed: the call already ran; reuse its outcome, do not run it;
 * - unknown: the call started (at `startedAt`, ISO) and has no outcome: ask a person;
 * - skipped: a person chose to treat it as not done (`decidedBy`: their name or email).
 */
export type ToolExecutionClaim =
  | { kind: "run"; attempt: number }
  | { kind: "completed"; attempt: number; outcome: ToolCallOutcome }
  | { kind: "unknown"; attempt: number; startedAt: string }
  | { kind: "skipped"; attempt: number; decidedBy: string };

/**
 * A choice for a call whose outcome is unknown: run it again, skip it (not done), or
 * `happened` (it took effect: its confirmed outcome is recorded and the run goes on).
 */
export type OutcomeChoice = "retry" | "skip" | "happened";

/** One stored record, as the outcome-choice service reads it. */
export interface ToolExecutionRecord extends ToolCallIntent {
  status: "started" | "completed" | "retry" | "skipped";
  attempt: number;
  /** ISO time the current attempt started. */
  startedAt: string;
}

/**
 * The store of tool execution records. Two implementations pass one conformance suite
 * (tool-executions.conformance.ts): the database one (tool-executions-prisma.ts) and an
 * in-memory twin for node tests (tool-executions-memory.ts). Every transition is one
 * conditional write, so two writers cannot both win.
 */
export interface ToolExecutionStore {
  /**
   * Records the intent of a call before it runs and answers what to do (see
   * {@link ToolExecutionClaim}). A first call commits `started`, attempt 1; a `retry` record
   * is claimed as the next attempt (`started` again); any other record is answered as is.
   * @param at the time, ms since the epoch.
   * @throws AppError conflict ("tool_call_mismatch") when a record of that call id names
   *   another tool or other arguments.
   */
  begin(intent: ToolCallIntent, at: number): Promise<ToolExecutionClaim>;
  /**
   * Records the outcome of `attempt` (started -> completed). A record that is no longer that
   * started attempt is left as it is.
   */
  finish(key: ToolCallKey, attempt: number, outcome: ToolCallOutcome, at: number): Promise<void>;
  /**
   * Records a choice for a started call without outcome: started -> retry, skipped, or
   * (`happened`) completed with `confirmed` as its outcome, with who (null: the engine) and
   * when, in one conditional update on `attempt`.
   * @returns false when the record is not that started attempt (decided already, or gone).
   * @throws Error when `happened` comes without `confirmed`.
   */
  decide(key: ToolCallKey, attempt: number, choice: OutcomeChoice, userId: string | null, at: number, confirmed?: ToolCallOutcome): Promise<boolean>;
  /** The record of a call, or null. */
  get(key: ToolCallKey): Promise<ToolExecutionRecord | null>;
}

/** The error message of a record that names another call than the one about to run. */
export const mismatchMessage = (key: ToolCallKey) => `Tool call ${key.toolCallId} was recorded with another tool or other arguments; it is not run again under the same id.`;
