import "server-only";
import { AppError } from "../errors";
import type { Db } from "./client";
import { workspaceScope } from "../auth/workspace-scope";
import { can, Role, requireCapability } from "../auth/roles";
import { membershipWhere, roleIn } from "../auth/membership";
import { ownWorkspaceId, personalWorkspace, personalWorkspaceName } from "./workspaces";

/**
 * Where a new flow goes (docs/security.md "Membership"): the workspace the user picks, where
 * they may edit flows, or else their own workspace (created when they have none). A workspace
 * another account made is used only when the user names it, so a membership, even an owner's,
 * never redirects someone's new flows.
 */

/**
 * The workspace a new flow of `userId` goes to.
 * @param workspaceId the workspace the user picked; omitted: the request's workspace scope
 *   when it has one (a key made for one workspace; docs/api.md "API keys"), else their own
 *   (see personalWorkspace).
 * @returns the workspace id.
 * @throws AppError not_found ("workspace_not_found") when the user is not a member of the
 *   picked workspace, forbidden ("role_forbidden") when their role there cannot edit flows.
 */
export async function workspaceForNewFlow(db: Db, userId: string, workspaceId?: string): Promise<string> {
  const picked = workspaceId ?? workspaceScope() ?? undefined;
  if (picked === undefined) return personalWorkspace(db, userId);
  const role = await roleIn(db, userId, picked);
  if (!role) throw new AppError("not_found", "workspace_not_found", `workspaceId: no workspace ${picked}; pick one of yours.`);
  requireCapability(role, "edit");
  return picked;
}

/** Where the "New flow" dialog may put a flow. */
export interface NewFlowTargets {
  /** The user's own workspace, or null when it does not exist yet (the first new flow creates it). */
  own: { id: string; name: string } | null;
  /** Other workspaces where the user may edit flows, by name. */
  others: { id: string; name: string }[];
  /** The name the user's own workspace gets when their first new flow creates it (personalWorkspaceName). */
  newOwnName: string;
  /** Workspaces where the user's role (viewer, approver) may not create flows, by name: the dialog says why they are not offered. */
  elsewhere: { name: string; role: Role }[];
}

/**
 * The workspaces where the user may create flows: their own (if it exists yet) and the others
 * where their role can edit; and those where it cannot (docs/security.md "Membership").
 */
export async function newFlowTargets(db: Db, userId: string): Promise<NewFlowTargets> {
  const [ownId, rows, user] = await Promise.all([
    ownWorkspaceId(db, userId),
    db.membership.findMany({ where: membershipWhere(userId), select: { role: true, workspace: { select: { id: true, name: true } } }, orderBy: { workspace: { name: "asc" } } }),
    db.user.findUnique({ where: { id: userId }, select: { name: true, email: true } }),
  ]);
  const editable: typeof rows = [];
  const elsewhere: NewFlowTargets["elsewhere"] = [];
  for (const m of rows) {
    const role = Role.safeParse(m.role);
    if (!role.success) continue;
    if (can(role.data, "edit")) editable.push(m);
    else elsewhere.push({ name: m.workspace.name, role: role.data });
  }
  return {
    own: editable.find((m) => m.workspace.id === ownId)?.workspace ?? null,
    others: editable.filter((m) => m.workspace.id !== ownId).map((m) => m.workspace),
    newOwnName: personalWorkspaceName(user),
    elsewhere,
  };
}
