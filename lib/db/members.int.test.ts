import { afterEach, describe, expect, it } from "vitest";
import { inviteMember } from "./invitations";
import { listMembers, listWorkspaces, removeMember, setRole } from "./members";
import { createTestDb, type TestDb } from "./test-db";
import { addMember } from "./test-members";
import { personalWorkspace } from "./workspaces";

/**
 * Workspace members on a real SQLite file (docs/security.md "Roles and powers"): only owners
 * manage, non-members see nothing (404), a workspace never loses its last owner (409). People
 * join by accepting an invitation (`addMember` from test-members.ts: invite, then accept).
 */
describe("workspace members", () => {
  let t: TestDb;
  afterEach(async () => t?.cleanup());

  /** A workspace owned by `owner`, with `approver` and `viewer` in it, and `stranger` outside. */
  async function workspace() {
    t = await createTestDb();
    const mk = (email: string) => t.db.user.create({ data: { email, name: email.split("@")[0] } }).then((u) => u.id);
    const [owner, approver, viewer, stranger, newcomer] = await Promise.all(["owner", "approver", "viewer", "stranger", "newcomer"].map((n) => mk(`${n}@test.dev`)));
    if (!owner || !approver || !viewer || !stranger || !newcomer) throw new Error("users");
    const ws = await personalWorkspace(t.db, owner);
    await addMember(t.db, owner, ws, { email: "approver@test.dev", role: "approver" });
    await addMember(t.db, owner, ws, { email: "viewer@test.dev", role: "viewer" });
    return { ws, owner, approver, viewer, stranger, newcomer };
  }

  const roles = async (actor: string, ws: string) => Object.fromEntries((await listMembers(t.db, actor, ws)).map((m) => [m.email, m.role]));

  it("an owner invites (the invitee accepts), changes and removes members; every member sees the list", async () => {
    const { ws, owner, viewer, newcomer } = await workspace();
    const added = await addMember(t.db, owner, ws, { email: "  NewComer@Test.dev ", role: "viewer" });
    expect(added).toMatchObject({ userId: newcomer, email: "newcomer@test.dev", role: "viewer" });
    expect(await roles(viewer, ws)).toEqual({ "owner@test.dev": "owner", "approver@test.dev": "approver", "viewer@test.dev": "viewer", "newcomer@test.dev": "viewer" });
    expect((await listMembers(t.db, viewer, ws)).map((m) => m.role)).toEqual(["owner", "approver", "viewer", "viewer"]);

    expect(await setRole(t.db, owner, ws, newcomer, "approver")).toMatchObject({ email: "newcomer@test.dev", role: "approver" });
    expect((await roles(owner, ws))["newcomer@test.dev"]).toBe("approver");
    expect(await listWorkspaces(t.db, newcomer)).toEqual([{ id: ws, name: "owner's workspace", role: "approver" }]);

    await removeMember(t.db, owner, ws, newcomer);
    expect(await roles(owner, ws)).not.toHaveProperty("newcomer@test.dev");
    expect(await listWorkspaces(t.db, newcomer)).toEqual([]);
    await expect(listMembers(t.db, newcomer, ws)).rejects.toMatchObject({ code: "not_found" });
  });

  it("approvers and viewers cannot manage members (403) and nothing changes", async () => {
    const { ws, owner, approver, viewer } = await workspace();
    for (const actor of [approver, viewer]) {
      await expect(inviteMember(t.db, actor, ws, { email: "stranger@test.dev", role: "owner" })).rejects.toMatchObject({ code: "forbidden", reason: "role_forbidden" });
      await expect(setRole(t.db, actor, ws, actor, "owner")).rejects.toMatchObject({ code: "forbidden", reason: "role_forbidden" });
      await expect(setRole(t.db, actor, ws, owner, "viewer")).rejects.toMatchObject({ code: "forbidden" });
      await expect(removeMember(t.db, actor, ws, owner)).rejects.toMatchObject({ code: "forbidden" });
    }
    expect(await roles(owner, ws)).toEqual({ "owner@test.dev": "owner", "approver@test.dev": "approver", "viewer@test.dev": "viewer" });
  });

  it("a non-member gets 404 for everything, as if the workspace did not exist", async () => {
    const { ws, owner, viewer, stranger } = await workspace();
    const notFound = { code: "not_found", reason: "workspace_not_found" };
    await expect(listMembers(t.db, stranger, ws)).rejects.toMatchObject(notFound);
    await expect(inviteMember(t.db, stranger, ws, { email: "stranger@test.dev", role: "owner" })).rejects.toMatchObject(notFound);
    await expect(setRole(t.db, stranger, ws, viewer, "owner")).rejects.toMatchObject(notFound);
    await expect(removeMember(t.db, stranger, ws, owner)).rejects.toMatchObject(notFound);
    await expect(listMembers(t.db, owner, "no-such-workspace")).rejects.toMatchObject(notFound);
    expect(await listWorkspaces(t.db, stranger)).toEqual([]);
    expect(await listWorkspaces(t.db, owner)).toEqual([{ id: ws, name: "owner's workspace", role: "owner" }]);
    // An owner acting on someone who is not a member: 404 naming the member.
    await expect(setRole(t.db, owner, ws, stranger, "viewer")).rejects.toMatchObject({ code: "not_found", reason: "member_not_found" });
    await expect(removeMember(t.db, owner, ws, stranger)).rejects.toMatchObject({ code: "not_found", reason: "member_not_found" });
  });

  it("the last owner can be neither demoted nor removed (409); with a second owner both work", async () => {
    const { ws, owner, approver } = await workspace();
    await expect(setRole(t.db, owner, ws, owner, "approver")).rejects.toMatchObject({ code: "conflict", reason: "last_owner" });
    await expect(removeMember(t.db, owner, ws, owner)).rejects.toMatchObject({ code: "conflict", reason: "last_owner" });
    expect((await roles(owner, ws))["owner@test.dev"]).toBe("owner");

    await setRole(t.db, owner, ws, approver, "owner");
    // Two owners demoting each other at once: exactly one wins, the workspace keeps an owner.
    const results = await Promise.allSettled([setRole(t.db, owner, ws, approver, "viewer"), setRole(t.db, approver, ws, owner, "viewer")]);
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const members = await listMembers(t.db, owner, ws);
    const owners = members.filter((m) => m.role === "owner");
    expect(owners).toHaveLength(1);

    // With a second owner again, an owner may step down and then leave.
    const survivor = owners[0]?.userId ?? "";
    const other = survivor === owner ? approver : owner;
    await setRole(t.db, survivor, ws, other, "owner");
    await setRole(t.db, survivor, ws, survivor, "approver");
    await removeMember(t.db, other, ws, survivor);
    expect((await listMembers(t.db, other, ws)).map((m) => [m.userId, m.role])).toEqual([
      [other, "owner"],
      [(await t.db.user.findUniqueOrThrow({ where: { email: "viewer@test.dev" } })).id, "viewer"],
    ]);
  });
});
