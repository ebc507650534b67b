import { afterEach, describe, expect, it } from "vitest";
import { replayMessages } from "../runs/replay";
import { dataSchemas, type RunChunk } from "./ui-parts";
import { publish, subscribe } from "./bus";
import { busEventsOf, eventsOf, type NamerState, storedEventOf } from "./run-events";
import { chunkOfStored } from "./stored-chunk";

/**
 * The card for a side effect whose outcome is unknown after a crash (docs/durability.md
 * "Side effects"): the data-outcome part is stored as the run's `outcome_unknown` event and
 * read back as the same part, so a reloaded run view shows the card.
 */
const outcome = {
  toolCallId: "call_w1",
  tool: "write_file",
  args: { path: "summary.md", content: "# Summary\n" },
  argsHash: "ab".repeat(32),
  stepId: "s1",
  agentId: "writer",
  approvalId: "ap1",
  attempt: 1,
  startedAt: "2026-03-01T19:42:03.000Z",
  description: "write_file summary.md started at 2026-03-01T19:42:03.000Z, but the server stopped before its result was recorded: it may or may not have taken effect. Run it again, or skip it?",
  status: "pending" as const,
};
const chunk: RunChunk = { type: "data-outcome", id: outcome.toolCallId, data: outcome };
const ids = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", threadId: "t1", runId: "r1" };

describe("the outcome_unknown event", () => {
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });

  it("checks the card's fields: a status outside pending | retry | skipped, or a missing start time, is refused", () => {
    expect(dataSchemas.outcome.parse(outcome)).toEqual(outcome);
    expect(() => dataSchemas.outcome.parse({ ...outcome, status: "done" })).toThrow();
    const { startedAt: _, ...noStart } = outcome;
    expect(() => dataSchemas.outcome.parse(noStart)).toThrow();
    expect(() => dataSchemas.outcome.parse({ ...outcome, attempt: 0 })).toThrow();
  });

  it("names the part outcome_unknown and carries it on tool.outcome_unknown, stored back as the same chunk", async () => {
    const seen: NamerState = { plans: new Set(), agent: null };
    expect(eventsOf(chunk, seen)).toEqual([{ name: "outcome_unknown", payload: outcome }]);
    const got: ReturnType<typeof storedEventOf>[] = [];
    stops.push(subscribe("tool.*", (e) => void got.push(storedEventOf(e)), { runId: "r1" }));
    for (const e of busEventsOf(chunk, seen, ids, 1)) await publish(e);
    expect(got).toEqual([{ name: "outcome_unknown", data: chunk, chunk }]);
  });

  it("reads a stored row back as the part, and replays it on the run's message, a later row replacing it in place", () => {
    const row = { seq: 7, type: "outcome_unknown", data: JSON.stringify(chunk) };
    expect(chunkOfStored(row)).toEqual(chunk);
    const again = { ...chunk, data: { ...outcome, attempt: 2, startedAt: "2026-03-01T19:50:00.000Z" } };
    const messages = replayMessages([
      { runId: "r1", seq: 1, type: "user_message", data: JSON.stringify({ text: "Continue", kind: "continue" }) },
      { runId: "r1", seq: 2, type: "tool_result", data: JSON.stringify({ type: "data-tool", id: "call_w1", data: { toolCallId: "call_w1" } }) },
      { runId: "r1", ...row, seq: 3 },
      { runId: "r1", seq: 4, type: "outcome_unknown", data: JSON.stringify(again) },
    ]);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const parts = messages[1]?.parts ?? [];
    expect(parts.map((p) => p.type)).toEqual(["data-tool", "data-outcome"]);
    expect(parts[1]).toEqual({ type: "data-outcome", id: "call_w1", data: again.data });
  });
});
