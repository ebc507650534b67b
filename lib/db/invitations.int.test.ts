import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "./client";
import { acceptInvitation, declineInvitation, myInvitations } from "./invitation-answers";
import { inviteMember, listInvitations, MAX_PENDING_INVITATIONS, revokeInvitation } from "./invitations";
import { listMembers, listWorkspaces } from "./members";
import { createTestDb, type TestDb } from "./test-db";
import { addMember } from "./test-members";
import { roleIn } from "../auth/membership";
import { personalWorkspace } from "./workspaces";

/**
 * Membership by consent on a real SQLite file (docs/security.md "Membership"): an owner's
 * invitation creates no membership until the invitee accepts it; each invitation is answered
 * once, only by its invitee; and the owner's answer is the same whether the email has an
 * account, is already a member, or neither.
 */
describe("invitations", () => {
  let t: TestDb;
  afterEach(async () => t?.cleanup());

  /** `owner`'s workspace with `viewer` in it; `victim` and `other` have accounts and no workspace in common with it. */
  async function setup() {
    t = await createTestDb();
    const mk = (email: string) => t.db.user.create({ data: { email, name: email.split("@")[0] } }).then((u) => u.id);
    const [owner, viewer, victim, other] = [await mk("owner@test.dev"), await mk("viewer@test.dev"), await mk("victim@test.dev"), await mk("other@test.dev")];
    const ws = await personalWorkspace(t.db, owner);
    await addMember(t.db, owner, ws, { email: "viewer@test.dev", role: "viewer" });
    return { ws, owner, viewer, victim, other };
  }

  const membershipCount = () => t.db.membership.count();

  it("an owner cannot add someone without consent: the invitation makes no membership until the invitee accepts", async () => {
    const { ws, owner, victim } = await setup();
    const before = await membershipCount();
    const inv = await inviteMember(t.db, owner, ws, { email: "Victim@Test.dev", role: "owner" });
    expect(inv).toMatchObject({ email: "victim@test.dev", role: "owner", invitedBy: "owner@test.dev" });
    expect(await membershipCount()).toBe(before);
    expect(await roleIn(t.db, victim, ws)).toBeNull();
    expect(await listWorkspaces(t.db, victim)).toEqual([]);
    await expect(listMembers(t.db, victim, ws)).rejects.toMatchObject({ code: "not_found" });
    expect((await listInvitations(t.db, owner, ws)).map((i) => i.email)).toEqual(["victim@test.dev"]);

    // The invitee sees it, names the workspace and the role, and accepts.
    const mine = await myInvitations(t.db, victim);
    expect(mine).toEqual([{ id: inv.id, workspace: { id: ws, name: "owner's workspace" }, role: "owner", invitedBy: "owner@test.dev", createdAt: inv.createdAt }]);
    expect(await acceptInvitation(t.db, victim, inv.id)).toEqual({ id: ws, name: "owner's workspace", role: "owner" });
    expect(await roleIn(t.db, victim, ws)).toBe("owner");
    expect(await myInvitations(t.db, victim)).toEqual([]);
    expect(await listInvitations(t.db, owner, ws)).toEqual([]);
  });

  it("a declined invitation makes no membership and cannot be accepted afterwards (409)", async () => {
    const { ws, owner, victim } = await setup();
    const inv = await inviteMember(t.db, owner, ws, { email: "victim@test.dev", role: "approver" });
    await declineInvitation(t.db, victim, inv.id);
    await expect(acceptInvitation(t.db, victim, inv.id)).rejects.toMatchObject({ code: "conflict", reason: "invitation_decided" });
    await expect(declineInvitation(t.db, victim, inv.id)).rejects.toMatchObject({ code: "conflict", reason: "invitation_decided" });
    expect(await roleIn(t.db, victim, ws)).toBeNull();
    expect(await myInvitations(t.db, victim)).toEqual([]);
    expect(await listInvitations(t.db, owner, ws)).toEqual([]);
  });

  it("a revoked invitation disappears for the invitee and cannot be accepted; revoking twice is 404", async () => {
    const { ws, owner, victim } = await setup();
    const inv = await inviteMember(t.db, owner, ws, { email: "victim@test.dev", role: "owner" });
    await revokeInvitation(t.db, owner, ws, inv.id);
    expect(await myInvitations(t.db, victim)).toEqual([]);
    await expect(acceptInvitation(t.db, victim, inv.id)).rejects.toMatchObject({ code: "conflict", reason: "invitation_decided" });
    await expect(revokeInvitation(t.db, owner, ws, inv.id)).rejects.toMatchObject({ code: "not_found", reason: "invitation_not_found" });
    expect(await roleIn(t.db, victim, ws)).toBeNull();
  });

  it("an invitation is accepted once: two accepts at the same time make one membership, the other gets 409", async () => {
    const { ws, owner, victim } = await setup();
    const inv = await inviteMember(t.db, owner, ws, { email: "victim@test.dev", role: "approver" });
    const results = await Promise.allSettled([acceptInvitation(t.db, victim, inv.id), acceptInvitation(t.db, victim, inv.id), declineInvitation(t.db, victim, inv.id)]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "conflict", reason: "invitation_decided" });
    expect(await t.db.membership.count({ where: { workspaceId: ws, userId: victim } })).toBe(results[2]?.status === "fulfilled" ? 0 : 1);
  });

  it("an account that is not the invitee gets 404 for accepting or declining it, even the inviting owner, and nothing changes", async () => {
    const { ws, owner, viewer, victim, other } = await setup();
    const inv = await inviteMember(t.db, owner, ws, { email: "victim@test.dev", role: "owner" });
    const before = await membershipCount();
    for (const actor of [other, owner, viewer]) {
      await expect(acceptInvitation(t.db, actor, inv.id)).rejects.toMatchObject({ code: "not_found", reason: "invitation_not_found" });
      await expect(declineInvitation(t.db, actor, inv.id)).rejects.toMatchObject({ code: "not_found", reason: "invitation_not_found" });
      expect((await myInvitations(t.db, actor)).map((i) => i.id)).not.toContain(inv.id);
    }
    await expect(acceptInvitation(t.db, victim, "no-such-invitation")).rejects.toMatchObject({ code: "not_found", reason: "invitation_not_found" });
    expect(await membershipCount()).toBe(before);
    expect(await roleIn(t.db, other, ws)).toBeNull();
    expect((await myInvitations(t.db, victim)).map((i) => i.id)).toEqual([inv.id]);
  });

  it("the owner's answer does not reveal whether an email has an account or is a member: same shape, same database work", async () => {
    const { ws, owner } = await setup();
    const operations: string[] = [];
    const traced = t.db.$extends({
      query: {
        $allModels: {
          $allOperations({ model, operation, args, query }) {
            operations.push(`${model}.${operation}`);
            return query(args);
          },
        },
      },
    }) as unknown as Db;
    const trace = async (email: string) => {
      operations.length = 0;
      const inv = await inviteMember(traced, owner, ws, { email, role: "approver" });
      return { inv, ops: [...operations] };
    };
    const unknown = await trace("nobody@test.dev");
    const known = await trace("victim@test.dev");
    const member = await trace("viewer@test.dev");
    const self = await trace("owner@test.dev");
    for (const r of [known, member, self]) {
      expect(Object.keys(r.inv).sort()).toEqual(Object.keys(unknown.inv).sort());
      expect({ ...r.inv, id: "", email: "", createdAt: "" }).toEqual({ ...unknown.inv, id: "", email: "", createdAt: "" });
      expect(r.ops).toEqual(unknown.ops);
    }
    expect(unknown.ops.some((op) => op.startsWith("User."))).toBe(false);
    expect(await t.db.user.count({ where: { email: "nobody@test.dev" } })).toBe(0);
    // A current member who "accepts" keeps the role they have.
    const viewerId = (await t.db.user.findUniqueOrThrow({ where: { email: "viewer@test.dev" } })).id;
    await acceptInvitation(t.db, viewerId, member.inv.id);
    expect(await roleIn(t.db, viewerId, ws)).toBe("viewer");
  });

  it("an account created after the invitation sees it and can accept it", async () => {
    const { ws, owner } = await setup();
    const inv = await inviteMember(t.db, owner, ws, { email: "later@test.dev", role: "viewer" });
    const later = (await t.db.user.create({ data: { email: "later@test.dev" } })).id;
    expect((await myInvitations(t.db, later)).map((i) => i.id)).toEqual([inv.id]);
    await acceptInvitation(t.db, later, inv.id);
    expect(await roleIn(t.db, later, ws)).toBe("viewer");
  });

  it("inviting again renews the invitation with a new id and role; the old id no longer accepts", async () => {
    const { ws, owner, victim } = await setup();
    const first = await inviteMember(t.db, owner, ws, { email: "victim@test.dev", role: "viewer" });
    await declineInvitation(t.db, victim, first.id);
    const second = await inviteMember(t.db, owner, ws, { email: "victim@test.dev", role: "approver" });
    expect(second.id).not.toBe(first.id);
    expect((await listInvitations(t.db, owner, ws)).map((i) => [i.email, i.role])).toEqual([["victim@test.dev", "approver"]]);
    await expect(acceptInvitation(t.db, victim, first.id)).rejects.toMatchObject({ code: "not_found" });
    await acceptInvitation(t.db, victim, second.id);
    expect(await roleIn(t.db, victim, ws)).toBe("approver");
  });

  it("only owners invite, list and revoke: members who cannot manage get 403, outsiders 404", async () => {
    const { ws, owner, viewer, other } = await setup();
    const inv = await inviteMember(t.db, owner, ws, { email: "victim@test.dev", role: "viewer" });
    const forbidden = { code: "forbidden", reason: "role_forbidden" };
    await expect(inviteMember(t.db, viewer, ws, { email: "other@test.dev", role: "owner" })).rejects.toMatchObject(forbidden);
    await expect(listInvitations(t.db, viewer, ws)).rejects.toMatchObject(forbidden);
    await expect(revokeInvitation(t.db, viewer, ws, inv.id)).rejects.toMatchObject(forbidden);
    const notFound = { code: "not_found", reason: "workspace_not_found" };
    await expect(inviteMember(t.db, other, ws, { email: "other@test.dev", role: "owner" })).rejects.toMatchObject(notFound);
    await expect(listInvitations(t.db, other, ws)).rejects.toMatchObject(notFound);
    await expect(revokeInvitation(t.db, other, ws, inv.id)).rejects.toMatchObject(notFound);
    // An owner of another workspace cannot revoke this one's invitation through theirs.
    const otherWs = await personalWorkspace(t.db, other);
    await expect(revokeInvitation(t.db, other, otherWs, inv.id)).rejects.toMatchObject({ code: "not_found", reason: "invitation_not_found" });
    expect((await listInvitations(t.db, owner, ws)).map((i) => i.id)).toEqual([inv.id]);
  });

  it(`a workspace holds at most ${MAX_PENDING_INVITATIONS} pending invitations (409); renewing one of them still works`, async () => {
    const { ws, owner } = await setup();
    await t.db.invitation.createMany({ data: Array.from({ length: MAX_PENDING_INVITATIONS }, (_, i) => ({ workspaceId: ws, email: `p${i}@test.dev`, role: "viewer", invitedById: owner })) });
    await expect(inviteMember(t.db, owner, ws, { email: "one-more@test.dev", role: "viewer" })).rejects.toMatchObject({ code: "conflict", reason: "too_many_invitations" });
    await expect(inviteMember(t.db, owner, ws, { email: "p0@test.dev", role: "approver" })).resolves.toMatchObject({ role: "approver" });
  });
});
