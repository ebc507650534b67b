import { describe, expect, it, vi } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { createFlow } from "../db/flows";
import { createTestDb } from "../db/test-db";
import { createThread } from "../db/threads";
import { prismaRunStore } from "./store-prisma";
import { runStoreConformance } from "./store.conformance";

// SQLite, or a fresh PostgreSQL database when TEST_DATABASE_URL is set (lib/db/test-db.ts).
runStoreConformance("database", async () => {
  const t = await createTestDb();
  const user = await t.db.user.create({ data: { email: "ada@test.dev", name: "Ada" } });
  const flow = await createFlow(t.db, user.id, workspaceAssistant);
  const a = await createThread(t.db, user.id, flow.id, "First");
  const b = await createThread(t.db, user.id, flow.id, "Second");
  return {
    store: prismaRunStore(t.db),
    threadIds: [a.id, b.id],
    flowVersionId: a.flowVersionId,
    async peek(threadId, runId) {
      const thread = await t.db.thread.findUnique({ where: { id: threadId }, select: { status: true, leaseRunId: true, leaseHolder: true } });
      const run = await t.db.run.findUnique({ where: { id: runId }, select: { status: true } });
      return { runStatus: run?.status ?? null, threadStatus: thread?.status ?? null, leaseRunId: thread?.leaseRunId ?? null, leaseHolder: thread?.leaseHolder ?? null };
    },
    cleanup: t.cleanup,
  };
});

/** Run events go through the driver's prepared statements, with the rows Prisma would write (docs/storage.md "Run events"). */
describe("run events on the driver", () => {
  it("appends and reads without a Prisma statement; Prisma reads the rows back as its own, and a transaction's writes stay in it", async () => {
    const t = await createTestDb();
    try {
      const user = await t.db.user.create({ data: { email: "ada@test.dev", name: "Ada" } });
      const flow = await createFlow(t.db, user.id, workspaceAssistant);
      const thread = await createThread(t.db, user.id, flow.id, "First");
      const creates = vi.spyOn(t.db.runEvent, "create");
      const finds = vi.spyOn(t.db.runEvent, "findMany");
      // A second writer takes the seq the first one would write next: the first reads the last seq again.
      const before = Date.now();
      const [a, b] = [prismaRunStore(t.db), prismaRunStore(t.db)];
      const event = (i: number) => ({ threadId: thread.id, runId: null, type: "lifecycle_transition", data: JSON.stringify({ i }) });
      const seqs: number[] = [];
      for (let i = 0; i < 9; i++) seqs.push(await a.append(event(i)));
      seqs.push(await b.append(event(9)));
      for (let i = 10; i < 20; i++) seqs.push(await a.append(event(i)));
      expect(seqs).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      const read = await prismaRunStore(t.db).events({ threadId: thread.id, afterSeq: 15 });
      expect(read.map((e) => e.seq)).toEqual([16, 17, 18, 19, 20]);
      expect(creates).not.toHaveBeenCalled();
      expect(finds).not.toHaveBeenCalled();
      creates.mockRestore();
      finds.mockRestore();
      const rows = await t.db.runEvent.findMany({ where: { threadId: thread.id }, orderBy: { seq: "asc" } });
      expect(new Set(rows.map((r) => r.id)).size).toBe(20);
      for (const r of rows) {
        expect(r.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1);
        expect(r.createdAt.getTime()).toBeLessThanOrEqual(Date.now());
      }
      // In a transaction that rolls back, the event goes with it.
      await expect(
        t.db.$transaction(async (tx) => {
          await prismaRunStore(tx as never).append({ threadId: thread.id, runId: null, type: "lifecycle_transition", data: "{}" });
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await prismaRunStore(t.db).lastSeq(thread.id)).toBe(20);
    } finally {
      await t.cleanup();
    }
  });
});
