import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../../lib/db/client";
import { type Client, signIn } from "../http/client";
import { startRun } from "../http/runs";
import { startServer, type TestServer } from "../http/server";

/**
 * Membership by consent and the instance-admin role over real HTTP, against the built app
 * (docs/security.md "Membership", "Roles and powers"), from the attacker's side: bob owns a
 * workspace and tries to pull others into it, to learn who has an account, to catch their new
 * flows, and to create accounts. alice is the first account, hence the instance admin; carol
 * is an approver and victor a viewer in alice's workspace.
 */
describe("membership by consent over HTTP", () => {
  let s: TestServer;
  let db: Db;
  let alice: Client;
  let bob: Client;
  let carol: Client;
  let aliceWs: string;
  let bobWs: string;

  const user = (i: number) => {
    const u = s.users[i];
    if (!u) throw new Error(`no user ${i}`);
    return u;
  };
  const workspaceOf = async (flowId: string) => (await db.flow.findUniqueOrThrow({ where: { id: flowId } })).workspaceId;
  const memberships = () => db.membership.findMany({ orderBy: [{ workspaceId: "asc" }, { userId: "asc" }], select: { workspaceId: true, userId: true, role: true } });
  const json = async (res: Response) => (await res.json()) as Record<string, unknown>;
  const invite = (c: Client, ws: string, email: string, role = "owner") => c.post(`/api/workspaces/${ws}/members`, { email, role });

  /** An account created by the admin (alice), signed in. */
  async function newAccount(email: string): Promise<{ client: Client; id: string }> {
    const password = `pw-${email}-long-enough`;
    const res = await alice.post("/api/admin/users", { email, password });
    expect(res.status).toBe(201);
    const { account } = (await res.json()) as { account: { id: string } };
    return { client: await signIn(s.url, email, password), id: account.id };
  }

  beforeAll(async () => {
    s = await startServer();
    db = createDb(s.dbUrl);
    alice = await signIn(s.url, user(0).email, user(0).password);
    bob = await signIn(s.url, user(1).email, user(1).password);
    carol = await signIn(s.url, user(2).email, user(2).password);
    aliceWs = await workspaceOf(user(0).flowId);
    bobWs = await workspaceOf(user(1).flowId);
  });
  afterAll(async () => {
    await db?.$disconnect();
    await s?.stop();
  });

  it("an owner cannot add a victim without consent: the victim is not a member until they accept, and declining keeps them out", async () => {
    const before = await memberships();
    const res = await invite(bob, bobWs, user(0).email, "owner");
    expect(res.status).toBe(202);
    const { invitation } = (await res.json()) as { invitation: { id: string } };
    expect(await memberships()).toEqual(before);
    // The victim sees nothing of the workspace yet ...
    expect((await alice.fetch(`/api/workspaces/${bobWs}/members`)).status).toBe(404);
    expect((await alice.fetch(`/api/flows/${user(1).flowId}/versions`)).status).toBe(404);
    // ... sees the invitation, and declines it.
    const mine = (await json(await alice.fetch("/api/invitations"))).invitations as { id: string; workspace: { id: string } }[];
    expect(mine.map((i) => [i.id, i.workspace.id])).toEqual([[invitation.id, bobWs]]);
    expect((await alice.post(`/api/invitations/${invitation.id}/decline`, {})).status).toBe(204);
    expect((await alice.post(`/api/invitations/${invitation.id}/accept`, {})).status).toBe(409);
    expect(await memberships()).toEqual(before);
    expect((await json(await alice.fetch("/api/invitations"))).invitations).toEqual([]);
  });

  it("an attacker cannot accept or decline someone else's invitation, even one to his own workspace: 404, and nothing changes", async () => {
    const res = await invite(alice, aliceWs, "dave@test.dev", "owner");
    const { invitation } = (await res.json()) as { invitation: { id: string } };
    const before = await memberships();
    for (const c of [bob, carol, alice]) {
      for (const what of ["accept", "decline"]) {
        const r = await c.post(`/api/invitations/${invitation.id}/${what}`, {});
        expect(r.status).toBe(404);
        expect(await r.text()).not.toContain("dave@test.dev");
      }
    }
    const own = await invite(bob, bobWs, "eve@test.dev", "viewer");
    const { invitation: bobs } = (await own.json()) as { invitation: { id: string } };
    expect((await bob.post(`/api/invitations/${bobs.id}/accept`, {})).status).toBe(404);
    expect(await memberships()).toEqual(before);
    expect((await db.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).status).toBe("pending");
  });

  it("the answer does not reveal whether an email has an account or is already a member", async () => {
    const emails = { unknown: "nobody-here@test.dev", account: user(0).email, member: user(2).email, self: user(0).email };
    const answers: Record<string, { status: number; keys: string[]; body: Record<string, unknown> }> = {};
    for (const [kind, email] of Object.entries(emails)) {
      const client = kind === "member" || kind === "self" ? alice : bob;
      const ws = client === alice ? aliceWs : bobWs;
      const res = await invite(client, ws, email, "viewer");
      const body = (await json(res)).invitation as Record<string, unknown>;
      answers[kind] = {
        status: res.status,
        keys: Object.keys(body).sort(),
        body: { ...body, id: typeof body.id, email: typeof body.email, createdAt: typeof body.createdAt, invitedBy: typeof body.invitedBy },
      };
    }
    const unknown = answers.unknown;
    for (const kind of ["account", "member", "self"]) expect(answers[kind]).toEqual(unknown);
    expect(unknown).toMatchObject({ status: 202, body: { role: "viewer" } });
    expect(await db.user.count({ where: { email: emails.unknown } })).toBe(0);

    // Timing: the same database operations run for every email (lib/db/invitations.int.test.ts
    // records them); a wall-clock comparison would only make this test flaky.
  });

  it("a victim's new flow never lands in the attacker's workspace, even after the victim accepted to own it", async () => {
    const victim = await newAccount("victim@test.dev");
    const res = await invite(bob, bobWs, "victim@test.dev", "owner");
    const { invitation } = (await res.json()) as { invitation: { id: string } };
    const accepted = await victim.client.post(`/api/invitations/${invitation.id}/accept`, {});
    expect(accepted.status).toBe(200);
    expect(await json(accepted)).toMatchObject({ workspace: { id: bobWs, role: "owner" } });

    const created = await victim.client.post("/api/flows", { template: "workspace-assistant" });
    expect(created.status).toBe(201);
    const { flowId, workspaceId } = (await created.json()) as { flowId: string; workspaceId: string };
    expect(workspaceId).not.toBe(bobWs);
    expect(await workspaceOf(flowId)).toBe(workspaceId);
    expect((await bob.fetch(`/api/flows/${flowId}/versions`)).status).toBe(404);
    // Only when the victim names it does a flow go there.
    const picked = await victim.client.post("/api/flows", { template: "workspace-assistant", workspaceId: bobWs });
    expect(picked.status).toBe(201);
    expect(((await picked.json()) as { workspaceId: string }).workspaceId).toBe(bobWs);
  });

  it("an attacker cannot put his new flow into a workspace he is not an editor of: 404 outside, 403 as approver or viewer", async () => {
    const flows = await db.flow.count();
    const outsider = await bob.post("/api/flows", { template: "workspace-assistant", workspaceId: aliceWs });
    expect(outsider.status).toBe(404);
    const approver = await carol.post("/api/flows", { template: "workspace-assistant", workspaceId: aliceWs });
    expect(approver.status).toBe(403);
    expect(await db.flow.count()).toBe(flows);
  });

  it("a non-admin cannot create accounts or list them: 403, and no account appears", async () => {
    const before = await db.user.count();
    for (const c of [bob, carol]) {
      const created = await c.post("/api/admin/users", { email: "sock-puppet@test.dev", password: "a-very-long-password" });
      expect(created.status).toBe(403);
      expect((await json(created)).error).toMatchObject({ reason: "admin_only" });
      expect((await c.fetch("/api/admin/users")).status).toBe(403);
    }
    expect(await db.user.count()).toBe(before);
    await expect(signIn(s.url, "sock-puppet@test.dev", "a-very-long-password")).rejects.toThrow(/sign-in failed/);
    // The admin can, and is not thereby a member of anyone's workspace.
    const list = await json(await alice.fetch("/api/admin/users"));
    expect((list.accounts as { email: string; admin: boolean }[]).filter((a) => a.admin).map((a) => a.email)).toEqual([user(0).email]);
    expect((await alice.fetch(`/api/flows/${user(1).flowId}/versions`)).status).toBe(404);
  });

  it("a user in several workspaces is always told which workspace a flow, run or approval is in; with one workspace pages stay quiet", async () => {
    await db.workspace.update({ where: { id: bobWs }, data: { name: "Bob Corp" } });
    const multi = await newAccount("multi@test.dev");
    const { invitation } = (await (await invite(bob, bobWs, "multi@test.dev", "approver")).json()) as { invitation: { id: string } };
    expect((await multi.client.post(`/api/invitations/${invitation.id}/accept`, {})).status).toBe(200);
    const page = async (c: Client, path: string) => {
      const res = await c.fetch(path);
      expect(res.status).toBe(200);
      return res.text();
    };
    expect(await page(multi.client, "/flows")).not.toContain('data-testid="flow-workspace"');

    // A second workspace (their own), and a run in Bob Corp waiting for approval.
    expect((await multi.client.post("/api/flows", { template: "workspace-assistant" })).status).toBe(201);
    const { threadId, approval } = await startRun(multi.client, user(1).flowId);
    const flows = await page(multi.client, "/flows");
    expect(flows).toMatch(/data-testid="flow-workspace"[^>]*>Bob Corp</);
    expect(flows).toMatch(/data-testid="thread-workspace"[^>]*>Bob Corp</);
    expect(await page(multi.client, `/threads/${threadId}`)).toMatch(/data-testid="thread-workspace"[^>]*>Bob Corp</);
    expect(await page(multi.client, `/approvals/${approval.approvalId}`)).toMatch(/data-testid="detail-workspace"[^>]*>Bob Corp</);
    expect(await page(multi.client, "/approvals")).toContain("Bob Corp");
    // Bob, in one workspace, sees no workspace labels on the same run.
    expect(await page(bob, `/threads/${threadId}`)).not.toContain('data-testid="thread-workspace"');
    expect(await page(bob, "/flows")).not.toContain('data-testid="flow-workspace"');
  });

  it("an owner's invitation list and revoke stay in his workspace: others' invitations are 404 to him", async () => {
    const res = await invite(alice, aliceWs, "frank@test.dev", "viewer");
    const { invitation } = (await res.json()) as { invitation: { id: string } };
    expect((await bob.fetch(`/api/workspaces/${aliceWs}/invitations`)).status).toBe(404);
    expect((await carol.fetch(`/api/workspaces/${aliceWs}/invitations`)).status).toBe(403);
    expect((await bob.fetch(`/api/workspaces/${bobWs}/invitations/${invitation.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await bob.fetch(`/api/workspaces/${aliceWs}/invitations/${invitation.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await db.invitation.findUniqueOrThrow({ where: { id: invitation.id } })).status).toBe("pending");
    const listed = (await json(await alice.fetch(`/api/workspaces/${aliceWs}/invitations`))).invitations as { id: string }[];
    expect(listed.map((i) => i.id)).toContain(invitation.id);
    expect((await alice.fetch(`/api/workspaces/${aliceWs}/invitations/${invitation.id}`, { method: "DELETE" })).status).toBe(204);
  });
});
