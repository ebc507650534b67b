import { describe, expect, it, vi } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { closeChallenge } from "../approvals/service";
import { threadAccess, threadWithOwnerRole } from "../auth/membership";
import { runInWorkspaceScope } from "../auth/workspace-scope";
import { accessSqlOf } from "./checkpointer-stores";
import { createFlow } from "./flows";
import { createTestDb } from "./test-db";
import { createThread } from "./threads";

// SQLite, or a fresh PostgreSQL database when TEST_DATABASE_URL is set (lib/db/test-db.ts).
/** The run path's reads on the driver return what Prisma returns (docs/storage.md "Reads on the driver"). */
describe("the run path's reads on the driver", () => {
  it("read a thread, an approval and the admission counts exactly as Prisma does, in one statement each", async () => {
    const t = await createTestDb();
    try {
      const ada = await t.db.user.create({ data: { email: "ada@test.dev", name: "Ada" } });
      const bob = await t.db.user.create({ data: { email: "bob@test.dev", name: "Bob" } });
      const flow = await createFlow(t.db, ada.id, workspaceAssistant);
      const bare = await createThread(t.db, ada.id, flow.id, "First");
      const full = await createThread(t.db, ada.id, flow.id, "Second");
      // Every nullable time set, with milliseconds, on the second thread.
      await t.db.thread.update({
        where: { id: full.id },
        data: { summary: "done", summarizedAt: new Date("2026-01-02T03:04:05.678Z"), leaseRunId: "r1", leaseHolder: "w1", leaseExpiresAt: new Date("2031-05-06T07:08:09.123Z"), status: "running" },
      });
      const sql = accessSqlOf(t.db);
      expect(sql).toBeDefined();
      if (!sql) return;
      for (const id of [bare.id, full.id]) {
        const prisma = await t.db.thread.findUnique({ where: { id }, include: { flow: true, flowVersion: true } });
        const read = await sql.threadWithRole(id, ada.id);
        expect(read).toEqual({ thread: prisma, role: "owner" });
        expect(read?.thread.createdAt).toBeInstanceOf(Date);
        expect((await sql.threadWithRole(id, bob.id))?.role).toBeNull();
      }
      expect(await sql.threadWithRole("no-such-thread", ada.id)).toBeNull();
      // Ids from a URL or a body find nothing, whatever they hold (PostgreSQL refuses a NUL in text).
      for (const hostile of ["a\u0000b", "\uD800", "%00", "' OR 1=1 --"]) {
        expect(await sql.threadWithRole(hostile, hostile)).toBeNull();
        expect(await sql.approvalWithRole(hostile, hostile)).toBeNull();
        expect(await sql.workspaceOf(hostile)).toBeNull();
        expect(await sql.admissionCounts(hostile)).toMatchObject({ active: 0 });
      }
      expect(await sql.workspaceOf(full.id)).toBe(flow.workspaceId);
      expect(await sql.workspaceOf("no-such-thread")).toBeNull();
      // Bob joins as an approver; no user asks for the thread's own user's role.
      await t.db.membership.create({ data: { workspaceId: flow.workspaceId, userId: bob.id, role: "approver" } });
      expect((await sql.threadWithRole(full.id, bob.id))?.role).toBe("approver");
      expect((await sql.threadWithRole(full.id, null))?.role).toBe("owner");

      const approval = await t.db.approval.create({
        data: {
          id: "appr-1",
          threadId: full.id,
          userId: ada.id,
          toolName: "write_file",
          toolCallId: "call-1",
          canonicalArgs: "{}",
          argsHash: "h",
          status: "consumed",
          expiresAt: new Date("2030-01-01T00:00:00.001Z"),
          decidedAt: new Date("2029-01-01T00:00:00.002Z"),
          decidedById: ada.id,
          consumedAt: new Date("2029-01-01T00:00:00.003Z"),
          runNotifiedAt: new Date("2029-01-01T00:00:00.004Z"),
          decision: "edit",
          editedArgs: '{"a":1}',
          editedArgsHash: "e",
        },
      });
      const found = await sql.approvalWithRole(approval.id, ada.id);
      expect(found).toEqual({ approval, workspaceId: flow.workspaceId, role: "owner" });
      expect((await sql.approvalWithRole(approval.id, bob.id))?.role).toBe("approver");
      expect((await sql.approvalWithRole(approval.id, null))?.role).toBeNull();
      expect(await sql.approvalWithRole("no-such-approval", ada.id)).toBeNull();

      const run = (status: string) => ({ threadId: full.id, flowVersionId: full.flowVersionId, kind: "start", status });
      const runs = await Promise.all(["queued", "running", "running", "completed"].map((s) => t.db.run.create({ data: run(s) })));
      await t.db.runJob.create({ data: { runId: runs[0]?.id ?? "", threadId: full.id, requestedBy: ada.id, input: "{}", status: "queued" } });
      await t.db.runJob.create({ data: { runId: runs[1]?.id ?? "", threadId: full.id, requestedBy: ada.id, input: "{}", status: "claimed" } });
      expect(await sql.admissionCounts(ada.id)).toEqual({ waiting: 1, active: 3 });
      expect(await sql.admissionCounts(bob.id)).toEqual({ waiting: 1, active: 0 });
    } finally {
      await t.cleanup();
    }
  });

  it("threadAccess and a decider's check use it on a root client, keep the workspace scope, and read through Prisma in a transaction", async () => {
    const t = await createTestDb();
    try {
      const ada = await t.db.user.create({ data: { email: "ada@test.dev", name: "Ada" } });
      const flow = await createFlow(t.db, ada.id, workspaceAssistant);
      const thread = await createThread(t.db, ada.id, flow.id, "First");
      await t.db.approval.create({
        data: { id: "appr-2", threadId: thread.id, userId: ada.id, toolName: "write_file", toolCallId: "c", canonicalArgs: "{}", argsHash: "h", expiresAt: new Date(Date.now() + 60_000) },
      });
      const threads = vi.spyOn(t.db.thread, "findUnique");
      const approvals = vi.spyOn(t.db.approval, "findUnique");
      const access = await threadAccess(t.db, ada.id, thread.id);
      expect((await threadWithOwnerRole(t.db, thread.id)).ownerRole).toBe("owner");
      expect((await runInWorkspaceScope("another-workspace", () => threadWithOwnerRole(t.db, thread.id))).ownerRole).toBeNull();
      expect(access.role).toBe("owner");
      expect(access.thread.flowVersion.document).toBe((await t.db.flowVersion.findUnique({ where: { id: thread.flowVersionId } }))?.document);
      const decider = { db: t.db, secret: "s", now: Date.now };
      const who = { approvalId: "appr-2", threadId: thread.id, userId: ada.id };
      // An API key scoped to another workspace sees neither; nor does the approval answer for another thread.
      await expect(runInWorkspaceScope("another-workspace", () => threadAccess(t.db, ada.id, thread.id))).rejects.toMatchObject({ code: "not_found" });
      await expect(runInWorkspaceScope("another-workspace", () => closeChallenge(decider, who, "reject"))).rejects.toMatchObject({ code: "not_found" });
      await expect(closeChallenge(decider, { ...who, threadId: "other" }, "reject")).rejects.toMatchObject({ code: "not_found" });
      await closeChallenge(decider, who, "reject", "no");
      expect(threads).not.toHaveBeenCalled();
      expect(approvals).not.toHaveBeenCalled();
      threads.mockRestore();
      approvals.mockRestore();
      expect((await t.db.approval.findUniqueOrThrow({ where: { id: "appr-2" } })).status).toBe("rejected");
      // In a transaction: Prisma, which sees the transaction's own uncommitted write.
      await t.db.$transaction(async (tx) => {
        await tx.thread.update({ where: { id: thread.id }, data: { status: "running" } });
        expect((await threadAccess(tx as never, ada.id, thread.id)).thread.status).toBe("running");
      });
    } finally {
      await t.cleanup();
    }
  });
});
