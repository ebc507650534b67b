import type { RunDataTypes } from "../events/ui-parts";

/** A call's execution record as far as the card goes (ToolExecution: status and attempt). */
export interface OutcomeRecordView {
  /** started | completed | retry | skipped */
  status: string;
  /** The record's current attempt, from 1. */
  attempt: number;
}

/** What the result of a call a person confirmed says (lib/runs/run-outcome.ts confirmedOutcome). */
export const CONFIRMED_MARK = "confirmed it after the server stopped during the call";

/**
 * What the run view's outcome card shows (docs/durability.md "Side effects"): whether the
 * person's choice for the card's attempt is still to be made (`pending`), was to run the
 * call again (`retry`), to skip it (`skipped`) or that it took effect (`happened`). The
 * engine stores the card `pending`; the choice is known from, first to last:
 * - `chosen`: the choice this view just sent (until the request fails);
 * - the call's execution record as the page loaded it: a later attempt, or the attempt
 *   marked retry, means retry; marked skipped means skipped; the card's attempt completed
 *   (it never completes on its own once asked about) means happened;
 * - the call's tool part as the run streamed on: a skipped call is reported `rejected`;
 *   a retried one runs again (`running`, `done`, or an `error` other than the card's).
 */
export function outcomeCardStatus(
  card: RunDataTypes["outcome"],
  tool: RunDataTypes["tool"] | undefined,
  record: OutcomeRecordView | undefined,
  chosen: "retry" | "skip" | "happened" | undefined,
): RunDataTypes["outcome"]["status"] {
  if (card.status !== "pending") return card.status;
  if (chosen) return chosen === "retry" ? "retry" : chosen === "skip" ? "skipped" : "happened";
  if (record) {
    if (record.attempt > card.attempt || (record.attempt === card.attempt && record.status === "retry")) return "retry";
    if (record.attempt === card.attempt && record.status === "skipped") return "skipped";
    if (record.attempt === card.attempt && record.status === "completed") return "happened";
  }
  if (tool?.toolCallId === card.toolCallId) {
    if (tool.status === "rejected") return "skipped";
    if (tool.status === "done" && tool.output?.includes(CONFIRMED_MARK)) return "happened";
    if (tool.status === "running" || tool.status === "done" || (tool.status === "error" && tool.output !== card.description)) return "retry";
  }
  return "pending";
}
