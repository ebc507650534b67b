import { describe, expect, it, vi } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { createFlow } from "../db/flows";
import { createTestDb } from "../db/test-db";
import { createThread } from "../db/threads";
import { prismaToolExecutions } from "./tool-executions-prisma";
import { toolExecutionConformance } from "./tool-executions.conformance";

toolExecutionConformance("SQLite", async () => {
  const t = await createTestDb();
  const user = await t.db.user.create({ data: { email: "ada@test.dev", name: "Ada" } });
  const flow = await createFlow(t.db, user.id, workspaceAssistant);
  const thread = await createThread(t.db, user.id, flow.id, "Post the report");
  return { store: prismaToolExecutions(t.db), threadId: thread.id, user: { id: user.id, name: "Ada" }, cleanup: t.cleanup };
});

/** A call's intent and outcome go through the driver (lib/db/tool-executions-sql.ts, docs/storage.md "Reads on the driver"). */
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
