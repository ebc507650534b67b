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

/** A worker's job read and claim go through the driver too (lib/db/run-jobs-sql.ts, docs/storage.md "Reads on the driver"). */
describe("a job's read and claim on the driver", () => {
  it("reads and claims without a Prisma query; two workers claiming at once get one claim; Prisma reads the rows it wrote", async () => {
    const t = await createTestDb();
    try {
      const user = await t.db.user.create({ data: { email: "ada@test.dev", name: "Ada" } });
      const flow = await createFlow(t.db, user.id, workspaceAssistant);
      const thread = await createThread(t.db, user.id, flow.id, "First");
      const store = prismaRunStore(t.db);
      const runId = await store.createRun({ threadId: thread.id, flowVersionId: thread.flowVersionId, kind: "start" });
      expect(await store.takeLease(thread.id, runId)).toBe(true);
      const jobId = await store.createJob({ runId, threadId: thread.id, requestedBy: user.id, input: "{}", startCheckpointId: null });
      const finds = vi.spyOn(t.db.runJob, "findUnique");
      const transactions = vi.spyOn(t.db, "$transaction");
      const job = await store.job({ id: jobId });
      expect(job).toEqual({ id: jobId, runId, threadId: thread.id, requestedBy: user.id, input: "{}", startCheckpointId: null, status: "queued", attempts: 0, holder: null });
      const before = Date.now();
      const now = Date.UTC(2030, 0, 1);
      const claims = await Promise.all(["w1", "w2", "w3"].map((w) => store.claim({ id: jobId, runId, threadId: thread.id }, w, now, 30_000)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      expect(finds).not.toHaveBeenCalled();
      expect(transactions).not.toHaveBeenCalled();
      finds.mockRestore();
      transactions.mockRestore();
      const holder = ["w1", "w2", "w3"][claims.indexOf(true)];
      const row = await t.db.runJob.findUniqueOrThrow({ where: { id: jobId } });
      expect(row).toMatchObject({ status: "claimed", holder, attempts: 1 });
      expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(before - 1);
      expect(row.updatedAt.getTime()).toBeLessThanOrEqual(Date.now());
      expect(await t.db.thread.findUniqueOrThrow({ where: { id: thread.id } })).toMatchObject({ leaseRunId: runId, leaseHolder: holder, leaseExpiresAt: new Date(now + 30_000) });
      expect((await t.db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("running");
      // Prisma's own lease writes and the driver's compare as times: a renewal by Prisma, then a claim before it lapses, refused.
      expect(await store.heartbeat(thread.id, runId, holder ?? "", now + 10_000, 30_000)).toBe(true);
      expect(await store.claim({ id: jobId, runId, threadId: thread.id }, "w4", now + 35_000, 30_000)).toBe(false);
      expect(await store.claim({ id: jobId, runId, threadId: thread.id }, "w4", now + 40_001, 30_000)).toBe(true);
      // A job that is done is never claimed again.
      await t.db.runJob.update({ where: { id: jobId }, data: { status: "done" } });
      expect(await store.claim({ id: jobId, runId, threadId: thread.id }, "w5", now + 100_000, 30_000)).toBe(false);
      expect(await store.job({ id: "no-such-job" })).toBeNull();
    } finally {
      await t.cleanup();
    }
  });
});
