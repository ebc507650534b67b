import type { OutcomeRecordView } from "./outcome-card-status";
import type { RunDataTypes, RunUIMessage } from "../events/ui-parts";

/** A call's execution record as stored (ToolExecution), as far as a card needs it. */
export interface OutcomeRecordRow extends OutcomeRecordView {
  toolCallId: string;
  toolName: string;
  argsHash: string;
  approvalId: string | null;
  stepId: string | null;
  agentId: string;
  startedAt: Date;
}

type Part = RunUIMessage["parts"][number];

/**
 * Adds the outcome card of each call the thread waits on that its stored events show no
 * card for (runs that stopped on an unknown outcome before the card was stored as an
 * event): while the thread is `awaiting_input`, a call whose record is `started` has no
 * outcome and nothing runs it (docs/durability.md "Side effects"), so a person must choose.
 * The arguments come from the call's tool part, whose error output is the engine's
 * account; a call with no tool part gets no card (nothing to show the person).
 * @returns the messages with each card appended to the last assistant message that shows
 *   the call (the input is not changed).
 */
export function withMissingOutcomeCards(messages: RunUIMessage[], records: OutcomeRecordRow[], threadStatus: string): RunUIMessage[] {
  if (threadStatus !== "awaiting_input") return messages;
  const has = (m: RunUIMessage, type: string, id: string) => m.parts.some((p) => p.type === type && "id" in p && p.id === id);
  let out = messages;
  for (const r of records) {
    if (r.status !== "started" || out.some((m) => has(m, "data-outcome", r.toolCallId))) continue;
    const at = out.findLastIndex((m) => m.role === "assistant" && has(m, "data-tool", r.toolCallId));
    if (at < 0) continue;
    const tool = (out[at]?.parts.find((p) => p.type === "data-tool" && p.id === r.toolCallId) as { data: RunDataTypes["tool"] }).data;
    const card: Part = {
      type: "data-outcome",
      id: r.toolCallId,
      data: {
        toolCallId: r.toolCallId,
        tool: r.toolName,
        args: tool.args,
        argsHash: r.argsHash,
        stepId: r.stepId,
        agentId: r.agentId,
        approvalId: r.approvalId,
        attempt: r.attempt,
        startedAt: r.startedAt.toISOString(),
        description: tool.output ?? `${r.toolName} started at ${r.startedAt.toISOString()}, but the server stopped before its result was recorded.`,
        status: "pending",
      },
    };
    out = out.map((m, i) => (i === at ? { ...m, parts: [...m.parts, card] } : m));
  }
  return out;
}
