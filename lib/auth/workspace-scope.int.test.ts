import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getApproval, inboxFlows, listApprovals, pendingCount } from "../approvals/inbox";
import { approveChallenge, challengeToken } from "../approvals/service";
import { listThreads } from "../db/dashboard";
import { listFlows } from "../db/flows";
import { myInvitations } from "../db/invitation-answers";
import { inviteMember } from "../db/invitations";
import { listWorkspaces } from "../db/members";
import { newFlowTargets, workspaceForNewFlow } from "../db/new-flow-workspace";
import { addMember } from "../db/test-members";
import { createTestDb, type TestDb } from "../db/test-db";
import { flowWorkspaceLabels } from "../db/workspace-labels";
import { flowAccess, threadAccess } from "./membership";
import { personalWorkspace } from "../db/workspaces";
import { runInWorkspaceScope, workspaceScope } from "./workspace-scope";

const SECRET = "k".repeat(32);

/**
 * The workspace scope of a key made for one workspace (docs/api.md "API keys"), on a real
 * database: pat owns workspace A and approves in workspace B, each with a flow, a thread and
 * a pending approval. Inside A's scope, every lookup sees A only and answers B as missing;
 * outside any scope, pat sees both (the control that the data is there).
 */
describe("workspace scope", () => {
  let t: TestDb;
  const now = Date.UTC(2026, 10, 24, 12, 0, 0);
  const ids = { pat: "", quinn: "", a: "", b: "", flowA: "", flowB: "", threadA: "", threadB: "", apvA: "", apvB: "" };

  beforeAll(async () => {
    t = await createTestDb();
    ids.pat = (await t.db.user.create({ data: { email: "pat@test.dev" } })).id;
    ids.quinn = (await t.db.user.create({ data: { email: "quinn@test.dev" } })).id;
    ids.a = await personalWorkspace(t.db, ids.pat);
    ids.b = await personalWorkspace(t.db, ids.quinn);
    await addMember(t.db, ids.quinn, ids.b, { email: "pat@test.dev", role: "approver" });
    const seed = async (ws: string, owner: string, name: string) => {
      const f = await t.db.flow.create({ data: { name, ownerId: owner, workspaceId: ws, versions: { create: { version: 1, document: "{}", authorId: owner } } }, include: { versions: true } });
      const th = await t.db.thread.create({ data: { userId: owner, flowId: f.id, flowVersionId: f.versions[0]?.id ?? "", title: `${name} task` } });
      const apv = await t.db.approval.create({
        data: {
          id: `apv_${name}`,
          threadId: th.id,
          userId: owner,
          toolName: "write_file",
          toolCallId: `call_${name}`,
          canonicalArgs: "{}",
          argsHash: "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
          createdAt: new Date(now - 60_000),
          expiresAt: new Date(now + 600_000),
        },
      });
      return { flow: f.id, thread: th.id, apv: apv.id };
    };
    const a = await seed(ids.a, ids.pat, "Alpha");
    const b = await seed(ids.b, ids.quinn, "Beta");
    Object.assign(ids, { flowA: a.flow, threadA: a.thread, apvA: a.apv, flowB: b.flow, threadB: b.thread, apvB: b.apv });
    // A pending invitation to a third workspace: a scoped key must not see or answer it.
    const ws3 = (await t.db.workspace.create({ data: { name: "Gamma", members: { create: { userId: ids.quinn, role: "owner" } } } })).id;
    await inviteMember(t.db, ids.quinn, ws3, { email: "pat@test.dev", role: "viewer" });
  });
  afterAll(async () => t?.cleanup());

  const inA = <T>(fn: () => Promise<T>) => runInWorkspaceScope(ids.a, fn);

  it("without a scope, pat sees both workspaces (control)", async () => {
    expect(workspaceScope()).toBeNull();
    expect((await listFlows(t.db, ids.pat)).map((f) => f.name).sort()).toEqual(["Alpha", "Beta"]);
    expect((await listThreads(t.db, ids.pat)).rows.map((r) => r.title).sort()).toEqual(["Alpha task", "Beta task"]);
    expect((await listApprovals(t.db, ids.pat, {}, now)).map((i) => i.approvalId).sort()).toEqual(["apv_Alpha", "apv_Beta"]);
    expect(await pendingCount(t.db, ids.pat, now)).toBe(2);
    expect((await listWorkspaces(t.db, ids.pat)).length).toBe(2);
    expect(await myInvitations(t.db, ids.pat)).toHaveLength(1);
  });

  it("inside A's scope, lists hold A's flows, threads, approvals and workspace only", async () => {
    await inA(async () => {
      expect(workspaceScope()).toBe(ids.a);
      expect((await listFlows(t.db, ids.pat)).map((f) => f.name)).toEqual(["Alpha"]);
      expect((await listThreads(t.db, ids.pat)).rows.map((r) => r.title)).toEqual(["Alpha task"]);
      expect((await listApprovals(t.db, ids.pat, { status: "all" }, now)).map((i) => i.approvalId)).toEqual(["apv_Alpha"]);
      expect((await inboxFlows(t.db, ids.pat)).map((f) => f.name)).toEqual(["Alpha"]);
      expect(await pendingCount(t.db, ids.pat, now)).toBe(1);
      expect((await listWorkspaces(t.db, ids.pat)).map((w) => w.id)).toEqual([ids.a]);
      expect((await flowWorkspaceLabels(t.db, ids.pat)).several).toBe(false);
      expect((await newFlowTargets(t.db, ids.pat)).others).toEqual([]);
      expect(await myInvitations(t.db, ids.pat)).toEqual([]);
    });
  });

  it("inside A's scope, B's flow, thread and approval answer 404, and B cannot be decided in", async () => {
    await inA(async () => {
      await expect(flowAccess(t.db, ids.pat, ids.flowB)).rejects.toMatchObject({ code: "not_found" });
      await expect(threadAccess(t.db, ids.pat, ids.threadB)).rejects.toMatchObject({ code: "not_found" });
      await expect(getApproval(t.db, ids.pat, ids.apvB, now)).rejects.toMatchObject({ code: "not_found" });
      await expect(workspaceForNewFlow(t.db, ids.pat, ids.b)).rejects.toMatchObject({ code: "not_found", reason: "workspace_not_found" });
      const b = await t.db.approval.findUniqueOrThrow({ where: { id: ids.apvB } });
      const decision = { approvalId: b.id, threadId: b.threadId, userId: ids.pat, token: challengeToken(SECRET, b), argsHash: b.argsHash };
      await expect(approveChallenge({ db: t.db, secret: SECRET, now: () => now }, decision)).rejects.toMatchObject({ code: "not_found", reason: "approval_not_found" });
      expect((await t.db.approval.findUniqueOrThrow({ where: { id: ids.apvB } })).status).toBe("pending");
      // A's own things still answer.
      expect((await flowAccess(t.db, ids.pat, ids.flowA)).role).toBe("owner");
      expect((await getApproval(t.db, ids.pat, ids.apvA, now)).approvalId).toBe(ids.apvA);
      // A new flow with no workspace named goes to the scope's workspace.
      expect(await workspaceForNewFlow(t.db, ids.pat)).toBe(ids.a);
    });
    // Control: out of the scope, pat may decide B's approval.
    const b = await t.db.approval.findUniqueOrThrow({ where: { id: ids.apvB } });
    await expect(
      approveChallenge({ db: t.db, secret: SECRET, now: () => now }, { approvalId: b.id, threadId: b.threadId, userId: ids.pat, token: challengeToken(SECRET, b), argsHash: b.argsHash }),
    ).resolves.toMatchObject({ status: "approved" });
  });

  it("B's scope is the mirror image: B only", async () => {
    await runInWorkspaceScope(ids.b, async () => {
      expect((await listFlows(t.db, ids.pat)).map((f) => f.name)).toEqual(["Beta"]);
      await expect(flowAccess(t.db, ids.pat, ids.flowA)).rejects.toMatchObject({ code: "not_found" });
    });
  });
});
