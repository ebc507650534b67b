import { describe, expect, it, vi } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { createFlow } from "../db/flows";
import { createTestDb } from "../db/test-db";
import { createThread } from "../db/threads";
import { createEngineDeps } from "./engine-deps";
import { prismaToolExecutions } from "./tool-executions-prisma";
import { toolExecutionConformance } from "./tool-executions.conformance";

toolExecutionConformance("SQLite", async () => {
  const t = await createTestDb();
  const user = await t.db.user.create({ data: { email: "ada@test.dev", name: "Ada" } });
  const flow = await createFlow(t.db, user.id, workspaceAssistant);
  const thread = await createThread(t.db, user.id, flow.id, "Post the report");
  return { store: prismaToolExecutions(t.db), threadId: thread.id, user: { id: user.id, name: "Ada" }, cleanup: t.cleanup };
});

/** A call's intent and outcome go through the driver (lib/db/run-writes-sql.ts, docs/storage.md "Reads on the driver"). */
describe("a tool call's writes on the driver", () => {
  it("records the intent and the outcome without a Prisma query, as rows Prisma reads as its own; two begins at once run the call once", async () => {
    const t = await createTestDb();
    try {
      const user = await t.db.user.create({ data: { email: "ada@test.dev", name: "Ada" } });
      const flow = await createFlow(t.db, user.id, workspaceAssistant);
      const thread = await createThread(t.db, user.id, flow.id, "Post the report");
      const store = prismaToolExecutions(t.db);
      const spies = [vi.spyOn(t.db.toolExecution, "create"), vi.spyOn(t.db.toolExecution, "findUnique"), vi.spyOn(t.db.toolExecution, "updateMany")];
      // A lone surrogate in the model's call id is stored well-formed, as Prisma stores every string.
      const intent = { threadId: thread.id, toolCallId: "call-\uD800-1", toolName: "write_file", argsHash: "a".repeat(64), approvalId: null, stepId: "s1", agentId: "assistant" };
      const begun = await Promise.all([store.begin(intent, Date.UTC(2026, 0, 1, 0, 0, 0, 123)), store.begin(intent, Date.UTC(2026, 0, 1, 0, 0, 0, 124))]);
      expect(begun.filter((b) => b.kind === "run")).toEqual([{ kind: "run", attempt: 1 }]);
      for (const s of spies) s.mockClear();
      const other = { ...intent, toolCallId: "call-2" };
      expect(await store.begin(other, 5_000)).toEqual({ kind: "run", attempt: 1 });
      const outcome = { status: "success" as const, result: { output: "wrote 2 chars" } as never, errorCode: null, durationMs: 7 };
      await store.finish(other, 1, outcome, 6_000);
      for (const s of spies) expect(s).not.toHaveBeenCalled();
      for (const s of spies) s.mockRestore();
      const rows = await t.db.toolExecution.findMany({ where: { threadId: thread.id }, orderBy: { startedAt: "asc" } });
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({ toolCallId: "call-2", status: "completed", attempt: 1, startedAt: new Date(5_000), endedAt: new Date(6_000), outcome: "success", durationMs: 7 });
      expect(JSON.parse(rows[0]?.result ?? "null")).toEqual({ output: "wrote 2 chars" });
      expect(rows[1]).toMatchObject({ toolCallId: "call-\uFFFD-1", status: "started", endedAt: null, stepId: "s1", approvalId: null });
      expect([123, 124]).toContain(rows[1]?.startedAt.getUTCMilliseconds());
      expect(new Set(rows.map((r) => r.id)).size).toBe(2);
      // The recorded outcome answers the next begin, through Prisma's read; the call id with the
      // lone surrogate finds its own row.
      expect(await store.begin(other, 7_000)).toEqual({ kind: "completed", attempt: 1, outcome });
      await store.finish(intent, 1, outcome, 8_000);
      expect(await store.begin(intent, 9_000)).toEqual({ kind: "completed", attempt: 1, outcome });
    } finally {
      await t.cleanup();
    }
  });
});

describe("a run's audit entries on the driver", () => {
  it("are written without a Prisma query, once per key, as rows Prisma reads as its own", async () => {
    const t = await createTestDb();
    try {
      const user = await t.db.user.create({ data: { email: "ada@test.dev", name: "Ada" } });
      const flow = await createFlow(t.db, user.id, workspaceAssistant);
      const thread = await createThread(t.db, user.id, flow.id, "Post the report");
      const deps = createEngineDeps({ db: t.db, doc: workspaceAssistant });
      const creates = vi.spyOn(t.db.auditEntry, "create");
      const before = Date.now();
      const record = { actor: user.id, action: "tool_executed", tool: "write_file", args_hash: "b".repeat(64), at: "2026-01-01T00:00:00.000Z", key: "tool_executed:call-1:1" };
      // A node that ran again after a crash writes the same keyed entry: once is enough.
      await deps.audit(thread.id, record);
      await deps.audit(thread.id, record);
      // Entries without a key may repeat; a lone surrogate is stored well-formed.
      await deps.audit(thread.id, { actor: "system", action: "policy_decision\uD800", at: "2026-01-01T00:00:01.000Z" });
      await deps.audit(thread.id, { actor: "system", action: "policy_decision\uD800", at: "2026-01-01T00:00:01.000Z" });
      expect(creates).not.toHaveBeenCalled();
      creates.mockRestore();
      const rows = await t.db.auditEntry.findMany({ where: { threadId: thread.id }, orderBy: { action: "asc" } });
      expect(rows.map((r) => [r.action, r.key])).toEqual([
        ["policy_decision\uFFFD", null],
        ["policy_decision\uFFFD", null],
        ["tool_executed", "tool_executed:call-1:1"],
      ]);
      expect(rows[2]).toMatchObject({ actorId: user.id, toolName: "write_file", argsHash: "b".repeat(64), workspaceId: null });
      expect(JSON.parse(rows[2]?.detail ?? "{}")).toEqual({ at: "2026-01-01T00:00:00.000Z", detail: null });
      for (const r of rows) expect(r.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1);
    } finally {
      await t.cleanup();
    }
  });
});
