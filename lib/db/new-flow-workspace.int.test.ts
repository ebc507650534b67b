import { afterEach, describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { createFlow } from "./flows";
import { newFlowTargets, workspaceForNewFlow } from "./new-flow-workspace";
import { createTestDb, type TestDb } from "./test-db";
import { addMember } from "./test-members";
import { personalWorkspace } from "./workspaces";

/**
 * Where a new flow goes, on a real SQLite file (docs/security.md "Membership"): the workspace
 * the user picks, where they may edit, or else the workspace they made; never one another
 * account made, even when the user owns it by invitation.
 */
describe("the workspace of a new flow", () => {
  let t: TestDb;
  afterEach(async () => t?.cleanup());

  async function setup() {
    t = await createTestDb();
    const mk = (email: string) => t.db.user.create({ data: { email, name: email.split("@")[0] } }).then((u) => u.id);
    const [attacker, victim, viewer] = [await mk("attacker@test.dev"), await mk("victim@test.dev"), await mk("viewer@test.dev")];
    const evil = await personalWorkspace(t.db, attacker);
    return { attacker, victim, viewer, evil };
  }

  it("a victim made owner of the attacker's workspace (having accepted) still gets new flows in a workspace of their own", async () => {
    const { attacker, victim, evil } = await setup();
    await addMember(t.db, attacker, evil, { email: "victim@test.dev", role: "owner" });
    const target = await workspaceForNewFlow(t.db, victim);
    expect(target).not.toBe(evil);
    const flow = await createFlow(t.db, victim, workspaceAssistant, { workspaceId: target });
    expect(flow.workspaceId).not.toBe(evil);
    expect(await t.db.membership.findMany({ where: { workspaceId: target }, select: { userId: true, role: true } })).toEqual([{ userId: victim, role: "owner" }]);
    // And the next one goes to the same own workspace.
    expect(await workspaceForNewFlow(t.db, victim)).toBe(target);
    expect(await newFlowTargets(t.db, victim)).toEqual({
      own: { id: target, name: "victim's workspace" },
      others: [{ id: evil, name: "attacker's workspace" }],
      newOwnName: "victim's workspace",
      elsewhere: [],
    });
  });

  it("a victim whose own workspace is newer than the attacker's membership still defaults to their own", async () => {
    const { attacker, victim, evil } = await setup();
    await addMember(t.db, attacker, evil, { email: "victim@test.dev", role: "owner" });
    const own = await t.db.workspace.create({ data: { name: "Mine", members: { create: { userId: victim, role: "owner" } } } });
    expect(await workspaceForNewFlow(t.db, victim)).toBe(own.id);
  });

  it("a picked workspace is used only where the user may edit: 404 when not a member, 403 as approver or viewer", async () => {
    const { attacker, victim, viewer, evil } = await setup();
    await expect(workspaceForNewFlow(t.db, victim, evil)).rejects.toMatchObject({ code: "not_found", reason: "workspace_not_found" });
    await addMember(t.db, attacker, evil, { email: "viewer@test.dev", role: "viewer" });
    await expect(workspaceForNewFlow(t.db, viewer, evil)).rejects.toMatchObject({ code: "forbidden", reason: "role_forbidden" });
    await addMember(t.db, attacker, evil, { email: "victim@test.dev", role: "approver" });
    await expect(workspaceForNewFlow(t.db, victim, evil)).rejects.toMatchObject({ code: "forbidden" });
    expect(await workspaceForNewFlow(t.db, attacker, evil)).toBe(evil);
    // A viewer is offered no workspace but a new one of their own, named, and told why.
    expect(await newFlowTargets(t.db, viewer)).toEqual({ own: null, others: [], newOwnName: "viewer's workspace", elsewhere: [{ name: "attacker's workspace", role: "viewer" }] });
  });
});
