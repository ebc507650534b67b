import { describe, expect, it } from "vitest";
import { withMissingOutcomeCards } from "./missing-outcome-cards";
import type { RunDataTypes, RunUIMessage } from "../events/ui-parts";

const card: RunDataTypes["outcome"] = {
  toolCallId: "call_w1",
  tool: "write_file",
  args: { path: "summary.md", content: "# Summary\n" },
  argsHash: "ab".repeat(32),
  stepId: "s1",
  agentId: "writer",
  approvalId: null,
  attempt: 1,
  startedAt: "2026-03-01T19:42:03.000Z",
  description: "write_file summary.md started at 2026-03-01T19:42:03.000Z, but the server stopped before its result was recorded.",
  status: "pending",
};
const tool = (status: RunDataTypes["tool"]["status"], output: string | null): RunDataTypes["tool"] => ({
  toolCallId: "call_w1",
  toolName: "write_file",
  args: card.args,
  argsHash: card.argsHash,
  status,
  decision: null,
  rule: null,
  output,
});

/** A card for a call the thread waits on that no stored event shows (runs stored before the card existed). */
describe("withMissingOutcomeCards", () => {
  const record = {
    toolCallId: "call_w1",
    toolName: "write_file",
    argsHash: card.argsHash,
    approvalId: null,
    stepId: "s1",
    agentId: "writer",
    status: "started",
    attempt: 1,
    startedAt: new Date(card.startedAt),
  };
  const messages: RunUIMessage[] = [
    { id: "user-r1", role: "user", parts: [{ type: "text", text: "Continue" }] },
    { id: "run-r1", role: "assistant", parts: [{ type: "data-tool", id: "call_w1", data: tool("error", card.description) }] },
  ];

  it("adds the card of a started call the awaiting thread shows no card for, with the call's arguments", () => {
    const out = withMissingOutcomeCards(messages, [record], "awaiting_input");
    expect(out[1]?.parts.at(-1)).toEqual({ type: "data-outcome", id: "call_w1", data: card });
    expect(messages[1]?.parts).toHaveLength(1);
  });

  it("adds nothing when the card is stored, the call is not started, or the thread is not awaiting input", () => {
    const shown = withMissingOutcomeCards(messages, [record], "awaiting_input");
    expect(withMissingOutcomeCards(shown, [record], "awaiting_input")).toBe(shown);
    expect(withMissingOutcomeCards(messages, [{ ...record, status: "completed" }], "awaiting_input")).toBe(messages);
    expect(withMissingOutcomeCards(messages, [record], "running")).toBe(messages);
  });
});
