import "server-only";
import { z } from "zod";
import { AppError } from "../errors";
import type { Db } from "./client";
import { Role, requireCapability, roleIn } from "./workspaces";

/**
 * Workspace members (issue 4 roles). Any member may see who else is in a workspace; only
 * an owner manages members (adds, changes roles, removes). A workspace always keeps at
 * least one owner. A user who is not a member gets 404 for everything, as if the
 * workspace did not exist.
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

/** What an owner sends to add a member: an existing account's email and a role. */
export const MemberInput = z.object({
  email: z.string().trim().toLowerCase().email("Enter the email of an existing account, e.g. approver@phylactery.dev."),
  role: Role,
});
export type MemberInput = z.infer<typeof MemberInput>;

/** The workspace, or 404 when the actor is not a member; returns the actor's role. */
async function actorRole(db: Db, actorId: string, workspaceId: string): Promise<Role> {
  const role = await roleIn(db, actorId, workspaceId);
  if (!role) throw new AppError("not_found", "workspace_not_found", `No workspace ${workspaceId}.`);
  return role;
}

function view(m: { userId: string; role: string; createdAt: Date; user: { email: string; name: string | null } }): MemberView {
  return { userId: m.userId, email: m.user.email, name: m.user.name, role: Role.parse(m.role), since: m.createdAt.toISOString() };
}

const withUser = { user: { select: { email: true, name: true } } } as const;

const lastOwner = (email: string) =>
  new AppError("conflict", "last_owner", `${email} is the last owner of this workspace; make another member an owner first, then try again.`);

/**
 * Every workspace `userId` is a member of, by name, with their role there.
 * @returns `[{ id, name, role }]`; empty when the user belongs to none.
 */
export async function listWorkspaces(db: Db, userId: string): Promise<WorkspaceView[]> {
  const rows = await db.membership.findMany({ where: { userId }, include: { workspace: { select: { name: true } } }, orderBy: { workspace: { name: "asc" } } });
  return rows.map((m) => ({ id: m.workspaceId, name: m.workspace.name, role: Role.parse(m.role) }));
}

/**
 * The members of a workspace, owners first, then by email. Any member may list them.
 * @throws AppError not_found ("workspace_not_found") when the actor is not a member.
 */
export async function listMembers(db: Db, actorId: string, workspaceId: string): Promise<MemberView[]> {
  await actorRole(db, actorId, workspaceId);
  const rows = await db.membership.findMany({ where: { workspaceId }, include: withUser, orderBy: { user: { email: "asc" } } });
  const rank: Record<Role, number> = { owner: 0, approver: 1, viewer: 2 };
  return rows.map(view).sort((a, b) => rank[a.role] - rank[b.role]);
}

/**
 * Adds an existing account to a workspace with a role (owner only, issue 4 roles). There is
 * no sign-up, so only accounts that already exist can be added.
 * @throws AppError not_found ("workspace_not_found") when the actor is not a member,
 *   forbidden ("role_forbidden") when the actor is not an owner, not_found
 *   ("account_not_found", names `email`) for an unknown email, conflict ("already_member").
 */
export async function addMember(db: Db, actorId: string, workspaceId: string, input: MemberInput): Promise<MemberView> {
  requireCapability(await actorRole(db, actorId, workspaceId), "manage");
  const email = input.email.trim().toLowerCase();
  const user = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (!user) {
    throw new AppError(
      "not_found",
      "account_not_found",
      `email: No account with this email (${email}). Phylactery has no sign-up: a person can be added once they have an account, created on the server (e.g. by prisma/seed.ts).`,
    );
  }
  const duplicate = () => new AppError("conflict", "already_member", `email: ${email} is already a member of this workspace; change their role in the list instead.`);
  if (await roleIn(db, user.id, workspaceId)) throw duplicate();
  try {
    const m = await db.membership.create({ data: { workspaceId, userId: user.id, role: input.role }, include: withUser });
    return view(m);
  } catch (err) {
    if ((err as { code?: string }).code === "P2002") throw duplicate();
    throw err;
  }
}

/**
 * Changes a member's role (owner only, issue 4 roles). The change and the owner count are
 * checked in one transaction, so two owners demoting each other at once cannot leave the
 * workspace without an owner.
 * @throws AppError not_found (actor not a member: "workspace_not_found"; target not a
 *   member: "member_not_found"), forbidden ("role_forbidden"), conflict ("last_owner").
 */
export async function setRole(db: Db, actorId: string, workspaceId: string, userId: string, role: Role): Promise<MemberView> {
  requireCapability(await actorRole(db, actorId, workspaceId), "manage");
  return db.$transaction(async (tx) => {
    const existing = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, include: withUser });
    if (!existing) throw new AppError("not_found", "member_not_found", `userId: ${userId} is not a member of this workspace.`);
    const updated = await tx.membership.update({ where: { workspaceId_userId: { workspaceId, userId } }, data: { role }, include: withUser });
    if ((await tx.membership.count({ where: { workspaceId, role: "owner" } })) === 0) throw lastOwner(existing.user.email);
    return view(updated);
  });
}

/**
 * Removes a member from a workspace (owner only, issue 4 roles); an owner may remove
 * themselves when another owner remains. Their flows stay in the workspace.
 * @throws AppError not_found ("workspace_not_found", "member_not_found"), forbidden
 *   ("role_forbidden"), conflict ("last_owner").
 */
export async function removeMember(db: Db, actorId: string, workspaceId: string, userId: string): Promise<void> {
  requireCapability(await actorRole(db, actorId, workspaceId), "manage");
  await db.$transaction(async (tx) => {
    const existing = await tx.membership.findUnique({ where: { workspaceId_userId: { workspaceId, userId } }, include: withUser });
    if (!existing) throw new AppError("not_found", "member_not_found", `userId: ${userId} is not a member of this workspace.`);
    await tx.membership.delete({ where: { workspaceId_userId: { workspaceId, userId } } });
    if ((await tx.membership.count({ where: { workspaceId, role: "owner" } })) === 0) throw lastOwner(existing.user.email);
  });
}
