import { describe, expect, it } from "vitest";
import { outcomeCardStatus } from "./outcome-card-status";
import type { RunDataTypes } from "../events/ui-parts";

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

/** What the unknown-outcome card shows once a choice is known (docs/durability.md "Side effects"). */
describe("outcomeCardStatus", () => {
  it("stays pending while the tool part is the engine's account and the record is the started attempt", () => {
    expect(outcomeCardStatus(card, tool("error", card.description), { status: "started", attempt: 1 }, undefined)).toBe("pending");
  });

  it("shows the choice just sent from this view", () => {
    expect(outcomeCardStatus(card, undefined, undefined, "skip")).toBe("skipped");
    expect(outcomeCardStatus(card, undefined, undefined, "retry")).toBe("retry");
  });

  it("reads the choice from the record loaded with the page: a later attempt or retry, or skipped", () => {
    expect(outcomeCardStatus(card, undefined, { status: "completed", attempt: 2 }, undefined)).toBe("retry");
    expect(outcomeCardStatus(card, undefined, { status: "retry", attempt: 1 }, undefined)).toBe("retry");
    expect(outcomeCardStatus(card, undefined, { status: "skipped", attempt: 1 }, undefined)).toBe("skipped");
  });

  it("reads the choice from the streamed tool part: rejected is skipped; running, done or another error is a retry", () => {
    expect(outcomeCardStatus(card, tool("rejected", "write_file summary.md was not done"), undefined, undefined)).toBe("skipped");
    expect(outcomeCardStatus(card, tool("running", null), undefined, undefined)).toBe("retry");
    expect(outcomeCardStatus(card, tool("done", "wrote 10 chars"), undefined, undefined)).toBe("retry");
    expect(outcomeCardStatus(card, tool("error", "disk full"), undefined, undefined)).toBe("retry");
  });

  it("It happened: the choice just sent, the card's attempt completed in the record, or the confirmed result streamed", () => {
    expect(outcomeCardStatus(card, undefined, undefined, "happened")).toBe("happened");
    expect(outcomeCardStatus(card, undefined, { status: "completed", attempt: 1 }, undefined)).toBe("happened");
    expect(outcomeCardStatus(card, tool("done", "write_file summary.md took effect: Carol confirmed it after the server stopped during the call (attempt 1)"), undefined, undefined)).toBe("happened");
  });

  it("a new card for the next attempt is pending again, whatever the record of the earlier one said", () => {
    const again = { ...card, attempt: 2, description: "attempt 2 died too" };
    expect(outcomeCardStatus(again, tool("error", again.description), { status: "started", attempt: 2 }, undefined)).toBe("pending");
  });
});
