import "server-only";
import { AppError } from "../errors";
import type { Db } from "./client";
import { lockWorkspace } from "./lock-workspace";
import { Role, requireCapability } from "../auth/roles";
import { type Caller, membershipWhere, workspaceRole } from "../auth/membership";

/**
 * Workspace members (docs/security.md "Roles and powers", "Membership"). Any member may see
 * who else is in a workspace; only an owner manages members (changes roles, removes, and
 * invites: lib/db/invitations.ts; a membership is created only when the invitee accepts,
 * lib/db/invitation-answers.ts). A workspace always keeps at least one owner. A user who is
 * not a member gets 404 for everything, as if the workspace did not exist.
 */

/** A member as the settings page and `GET /api/workspaces/:id/members` show it. */
export interface MemberView {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  /** When the membership was created, ISO 8601. */
  since: string;
}

/** A workspace the user is a member of, with the user's role there. */
export interface WorkspaceView {
  id: string;
  name: string;
  role: Role;
}

/**
 * The workspace, or 404 when the actor is not a member; returns the actor's role. `actorId` is
 * a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 */
async function actorRole(db: Db, actorId: Caller, workspaceId: string): Promise<Role> {
  return workspaceRole(db, actorId, workspaceId);
}

function view(m: { userId: string; role: string; createdAt: Date; user: { email: string; name: string | null } }): MemberView {
  return { userId: m.userId, email: m.user.email, name: m.user.name, role: Role.parse(m.role), since: m.createdAt.toISOString() };
}

const withUser = { user: { select: { email: true, name: true } } } as const;

const lastOwner = (email: string) => new AppError("conflict", "last_owner", `${email} is the last owner of this workspace; make another member an owner first, then try again.`);

/**
 * Every workspace `userId` is a member of, by name, with their role there (only the scope's
 * workspace within a workspace scope: docs/api.md "API keys").
 * @returns `[{ id, name, role }]`; empty when the user belongs to none.
 */
export async function listWorkspaces(db: Db, userId: string): Promise<WorkspaceView[]> {
  const rows = await db.membership.findMany({ where: membershipWhere(userId), include: { workspace: { select: { name: true } } }, orderBy: { workspace: { name: "asc" } } });
  return rows.map((m) => ({ id: m.workspaceId, name: m.workspace.name, role: Role.parse(m.role) }));
}

/**
 * The members of a workspace, owners first, then by email. Any member may list them.
 * @throws AppError not_found ("workspace_not_found") when the actor is not a member.
 */
export async function listMembers(db: Db, actorId: Caller, workspaceId: string): Promise<MemberView[]> {
  await actorRole(db, actorId, workspaceId);
  const rows = await db.membership.findMany({ where: { workspaceId }, include: withUser, orderBy: { user: { email: "asc" } } });
  const rank: Record<Role, number> = { owner: 0, approver: 1, viewer: 2 };
  return rows.map(view).sort((a, b) => rank[a.role] - rank[b.role]);
}

/**
 * Changes a member's role (owner only, docs/security.md "Roles and powers"). The change and the owner count are
 * checked in one transaction, so two owners demoting each other at once cannot leave the
 * workspace without an owner.
 * @throws AppError not_found (actor not a member: "workspace_not_found"; target not a
 *   member: "member_not_found"), forbidden ("role_forbidden"), conflict ("last_owner").
 */
export async function setRole(db: Db, actorId: Caller, workspaceId: string, userId: string, role: Role): Promise<MemberView> {
  requireCapability(await actorRole(db, actorId, workspaceId), "manage");
  return db.$transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId);
    const existing = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, include: withUser });
    if (!existing) throw new AppError("not_found", "member_not_found", `userId: ${userId} is not a member of this workspace.`);
    const updated = await tx.membership.update({ where: { workspaceId_userId: { workspaceId, userId } }, data: { role }, include: withUser });
    if ((await tx.membership.count({ where: { workspaceId, role: "owner" } })) === 0) throw lastOwner(existing.user.email);
    return view(updated);
  });
}

/**
 * Removes a member from a workspace (owner only, docs/security.md "Roles and powers"); an owner may remove
 * themselves when another owner remains. Their flows stay in the workspace.
 * @throws AppError not_found ("workspace_not_found", "member_not_found"), forbidden
 *   ("role_forbidden"), conflict ("last_owner").
 */
export async function removeMember(db: Db, actorId: Caller, workspaceId: string, userId: string): Promise<void> {
  requireCapability(await actorRole(db, actorId, workspaceId), "manage");
  await db.$transaction(async (tx) => {
    await lockWorkspace(tx, workspaceId);
    const existing = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, include: withUser });
    if (!existing) throw new AppError("not_found", "member_not_found", `userId: ${userId} is not a member of this workspace.`);
    await tx.membership.delete({ where: { workspaceId_userId: { workspaceId, userId } } });
    if ((await tx.membership.count({ where: { workspaceId, role: "owner" } })) === 0) throw lastOwner(existing.user.email);
  });
}
