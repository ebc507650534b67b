import { describe, expect, it } from "vitest";
import type { ToolCallIntent, ToolCallOutcome, ToolExecutionStore } from "./tool-executions";

/** What a conformance run needs: a fresh store, a thread it may write, and the decider's name. */
export interface ConformanceSetup {
  store: ToolExecutionStore;
  threadId: string;
  /** A user id that may decide, and the name a skipped record reports for them. */
  user: { id: string; name: string };
  cleanup(): Promise<void>;
}

const outcome: ToolCallOutcome = {
  status: "success",
  result: {
    tool_name: "http_request",
    call_id: "c1",
    output: "201 Created",
    status: "success",
    evicted: false,
    pointer: null,
    size_chars: 11,
    rehydration_allowed: false,
    metadata: { durationMs: 12 },
  },
  errorCode: null,
  durationMs: 12,
};

/**
 * The contract every tool execution store meets (tool-executions.ts), run against the
 * database store and its in-memory twin alike.
 */
export function toolExecutionConformance(name: string, setup: () => Promise<ConformanceSetup>): void {
  describe(`tool execution store: ${name}`, () => {
    const intentOf = (threadId: string, over: Partial<ToolCallIntent> = {}): ToolCallIntent => ({
      threadId,
      toolCallId: "c1",
      toolName: "http_request",
      argsHash: "a".repeat(64),
      approvalId: "apv_1",
      stepId: "s1",
      agentId: "assistant",
      ...over,
    });

    it("the first begin commits the intent and says run; a second begin (a re-run during the call) says unknown, with when it started", async () => {
      const s = await setup();
      try {
        const intent = intentOf(s.threadId);
        expect(await s.store.begin(intent, Date.UTC(2026, 0, 1))).toEqual({ kind: "run", attempt: 1 });
        expect(await s.store.get(intent)).toMatchObject({ status: "started", attempt: 1, approvalId: "apv_1", toolName: "http_request" });
        expect(await s.store.begin(intent, Date.UTC(2026, 0, 2))).toEqual({ kind: "unknown", attempt: 1, startedAt: "2026-01-01T00:00:00.000Z" });
      } finally {
        await s.cleanup();
      }
    });

    it("after finish, begin answers the recorded outcome (completed) and never run", async () => {
      const s = await setup();
      try {
        const intent = intentOf(s.threadId);
        await s.store.begin(intent, 1_000);
        await s.store.finish(intent, 1, outcome, 2_000);
        expect(await s.store.begin(intent, 3_000)).toEqual({ kind: "completed", attempt: 1, outcome });
        expect(await s.store.begin(intent, 4_000)).toEqual({ kind: "completed", attempt: 1, outcome });
      } finally {
        await s.cleanup();
      }
    });

    it("retry: the decision is one-time, and the next begin claims attempt 2 once", async () => {
      const s = await setup();
      try {
        const intent = intentOf(s.threadId);
        await s.store.begin(intent, 1_000);
        expect(await s.store.decide(intent, 1, "retry", s.user.id, 2_000)).toBe(true);
        expect(await s.store.decide(intent, 1, "skip", s.user.id, 2_000)).toBe(false);
        expect(await s.store.begin(intent, 3_000)).toEqual({ kind: "run", attempt: 2 });
        expect(await s.store.begin(intent, 4_000)).toEqual({ kind: "unknown", attempt: 2, startedAt: new Date(3_000).toISOString() });
        await s.store.finish(intent, 1, outcome, 5_000);
        expect((await s.store.get(intent))?.status).toBe("started");
        await s.store.finish(intent, 2, outcome, 5_000);
        expect(await s.store.begin(intent, 6_000)).toMatchObject({ kind: "completed", attempt: 2 });
      } finally {
        await s.cleanup();
      }
    });

    it("skip: begin answers skipped with the decider's name; a completed call cannot be decided", async () => {
      const s = await setup();
      try {
        const a = intentOf(s.threadId);
        await s.store.begin(a, 1_000);
        expect(await s.store.decide(a, 1, "skip", s.user.id, 2_000)).toBe(true);
        expect(await s.store.begin(a, 3_000)).toEqual({ kind: "skipped", attempt: 1, decidedBy: s.user.name });
        const b = intentOf(s.threadId, { toolCallId: "c2" });
        await s.store.begin(b, 1_000);
        await s.store.finish(b, 1, outcome, 2_000);
        expect(await s.store.decide(b, 1, "retry", s.user.id, 3_000)).toBe(false);
        expect(await s.store.decide(intentOf(s.threadId, { toolCallId: "nope" }), 1, "retry", s.user.id, 3_000)).toBe(false);
      } finally {
        await s.cleanup();
      }
    });

    it("happened: the confirmed outcome is recorded, begin answers completed with it, and nothing runs", async () => {
      const s = await setup();
      try {
        const a = intentOf(s.threadId);
        await s.store.begin(a, 1_000);
        expect(await s.store.decide(a, 1, "happened", s.user.id, 2_000, outcome)).toBe(true);
        expect(await s.store.begin(a, 3_000)).toEqual({ kind: "completed", attempt: 1, outcome });
        expect(await s.store.decide(a, 1, "skip", s.user.id, 3_000)).toBe(false);
        // The engine confirms too (no person): decided by nobody.
        const b = intentOf(s.threadId, { toolCallId: "c2" });
        await s.store.begin(b, 1_000);
        expect(await s.store.decide(b, 1, "happened", null, 2_000, outcome)).toBe(true);
        expect((await s.store.begin(b, 3_000)).kind).toBe("completed");
      } finally {
        await s.cleanup();
      }
    });

    it("the same call id with other arguments or another tool is refused, never reused", async () => {
      const s = await setup();
      try {
        await s.store.begin(intentOf(s.threadId), 1_000);
        await expect(s.store.begin(intentOf(s.threadId, { argsHash: "b".repeat(64) }), 2_000)).rejects.toMatchObject({ reason: "tool_call_mismatch" });
        await expect(s.store.begin(intentOf(s.threadId, { toolName: "write_file" }), 2_000)).rejects.toMatchObject({ reason: "tool_call_mismatch" });
      } finally {
        await s.cleanup();
      }
    });

    it("two concurrent first begins: exactly one says run", async () => {
      const s = await setup();
      try {
        const intent = intentOf(s.threadId);
        const claims = await Promise.all([s.store.begin(intent, 1_000), s.store.begin(intent, 1_000)]);
        expect(claims.map((c) => c.kind).sort()).toEqual(["run", "unknown"]);
      } finally {
        await s.cleanup();
      }
    });
  });
}
