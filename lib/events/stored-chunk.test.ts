import { describe, expect, it } from "vitest";
import { withoutLiveTokens } from "./redact";
import type { RunChunk } from "./ui-parts";
import { busEventsOf, storedEventOf } from "./run-events";
import { chunkOfStored } from "./stored-chunk";

/** Stored run events read back as the exact chunks the run streamed. */
describe("chunkOfStored", () => {
  const ids = { traceId: "0af7651916cd43dd8448eb211c80319c", threadId: "t1", runId: "r1" };
  const chunks: RunChunk[] = [
    { type: "data-run", id: "r1", data: { runId: "r1", traceId: ids.traceId, status: "running", model: { provider: "offline", modelId: "m", offline: true }, error: null, usage: null } },
    { type: "data-plan", id: "p1", data: { planId: "p1", status: "executing", steps: [] } },
    { type: "data-handoff", id: "h1", data: { from: "supervisor", to: "a1", agentName: "Writer", icon: "pen", color: "#000", reason: "write", stepId: "s1" } },
    {
      type: "data-tool",
      id: "c1",
      data: { toolCallId: "c1", toolName: "write_file", args: { path: "a.md" }, argsHash: "h", status: "awaiting_approval", decision: "AUTH_REQUIRED", rule: "r", output: null },
    },
    {
      type: "data-approval",
      id: "apv_1",
      data: { approvalId: "apv_1", toolName: "write_file", toolCallId: "c1", canonicalArgs: "{}", argsHash: "h", token: "live-token", expiresAt: "2026-01-01T00:00:00.000Z", status: "pending" },
    },
    { type: "data-lifecycle", id: "r1-1", data: { from: "INIT", to: "PLANNING", node: "planner", at: "2026-01-01T00:00:00.000Z" } },
    { type: "text", id: "answer", text: "Done: **summary.md** written." },
  ];

  it("gives back every chunk the run service stores, as streamed (approval tokens blank: never stored)", () => {
    const seen = { plans: new Set<string>(), agent: null };
    let seq = 0;
    for (const chunk of chunks) {
      const rows = busEventsOf(chunk, seen, ids, 1).map((e) => {
        const stored = storedEventOf(e);
        seq += 1;
        // As lib/runs/run-thread.ts writes the row.
        return { seq, type: stored?.name ?? "?", data: JSON.stringify(withoutLiveTokens(stored?.data)) };
      });
      const back = rows.map(chunkOfStored);
      const expected = chunk.type === "data-approval" ? { ...chunk, data: { ...chunk.data, token: "" } } : chunk;
      // A handoff also stores agent_changed, a record no chunk stands for.
      expect(back).toEqual(chunk.type === "data-handoff" ? [expected, null] : [expected]);
    }
  });

  it("skips stored-only records and rows that are not JSON objects", () => {
    expect(chunkOfStored({ seq: 1, type: "user_message", data: JSON.stringify({ text: "Hi", kind: "message" }) })).toBeNull();
    expect(chunkOfStored({ seq: 2, type: "intent_classified", data: JSON.stringify({ type: "event", name: "intent_classified", payload: { intent: "task" } }) })).toBeNull();
    expect(chunkOfStored({ seq: 3, type: "thread_forked", data: JSON.stringify({ type: "event", name: "thread_forked", payload: {} }) })).toBeNull();
    expect(chunkOfStored({ seq: 4, type: "final_answer", data: "not json" })).toBeNull();
    expect(chunkOfStored({ seq: 5, type: "final_answer", data: "[1]" })).toBeNull();
  });

  it("reads rows stored before events were named (type = the chunk type)", () => {
    expect(chunkOfStored({ seq: 1, type: "user-message", data: JSON.stringify({ text: "Hi" }) })).toBeNull();
    expect(chunkOfStored({ seq: 2, type: "data-plan", data: JSON.stringify({ id: "p1", data: { planId: "p1", status: "executing", steps: [] } }) })).toEqual({
      type: "data-plan",
      id: "p1",
      data: { planId: "p1", status: "executing", steps: [] },
    });
    expect(chunkOfStored({ seq: 3, type: "text", data: JSON.stringify({ text: "Old answer" }) })).toEqual({ type: "text", id: "text-3", text: "Old answer" });
  });
});
