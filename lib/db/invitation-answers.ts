import "server-only";
import { AppError } from "../errors";
import type { Db } from "./client";
import type { WorkspaceView } from "./members";
import { workspaceScope } from "../auth/workspace-scope";
import { Role } from "../auth/roles";

/**
 * Invitations, the invitee's side (docs/security.md "Membership"): a signed-in account sees
 * the pending invitations sent to its email (also those sent before the account existed) and
 * accepts or declines each once. Only the invitee may: for anyone else an invitation does not
 * exist (404), whatever its id.
 */

/** A pending invitation as its invitee sees it. */
export interface MyInvitationView {
  id: string;
  workspace: { id: string; name: string };
  /** The role accepting gives (an existing member keeps their role). */
  role: Role;
  /** Email of the owner who invited. */
  invitedBy: string;
  /** When it was sent, ISO 8601. */
  createdAt: string;
}

/** The account's email, lower-case (invitations are stored lower-case). */
async function emailOf(db: Pick<Db, "user">, userId: string): Promise<string> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
  if (!user) throw new AppError("unauthorized", "signed_out", "Your account no longer exists; sign in again.");
  return user.email.trim().toLowerCase();
}

/**
 * Prisma filter: within a workspace scope (a key made for one workspace), only invitations to
 * that workspace, so such a key cannot join its user to another (docs/api.md "API keys").
 */
const inScope = (): { workspaceId?: string } => {
  const scope = workspaceScope();
  return scope ? { workspaceId: scope } : {};
};

/**
 * The pending invitations sent to the user's email, newest first (within the request's
 * workspace scope, when it has one).
 * @throws AppError unauthorized when the account no longer exists.
 */
export async function myInvitations(db: Db, userId: string): Promise<MyInvitationView[]> {
  const email = await emailOf(db, userId);
  const rows = await db.invitation.findMany({
    where: { email, status: "pending", ...inScope() },
    include: { workspace: { select: { id: true, name: true } }, invitedBy: { select: { email: true } } },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
  return rows.map((r) => ({ id: r.id, workspace: r.workspace, role: Role.parse(r.role), invitedBy: r.invitedBy.email, createdAt: r.createdAt.toISOString() }));
}

/**
 * Marks the user's own pending invitation `status` in one conditional update (one winner
 * when answers or a revoke race), inside `tx`.
 * @returns the invitation as it was.
 * @throws AppError not_found ("invitation_not_found") when it is not the user's, conflict
 *   ("invitation_decided") when it was already accepted, declined or revoked.
 */
async function decide(tx: Pick<Db, "user" | "invitation">, userId: string, invitationId: string, status: "accepted" | "declined") {
  const email = await emailOf(tx, userId);
  const inv = await tx.invitation.findFirst({ where: { id: invitationId, email, ...inScope() }, include: { workspace: { select: { name: true } } } });
  if (!inv) throw new AppError("not_found", "invitation_not_found", `No invitation ${invitationId} for you; reload Settings to see your invitations.`);
  const { count } = await tx.invitation.updateMany({ where: { id: inv.id, email, status: "pending" }, data: { status, decidedAt: new Date() } });
  if (count === 0) {
    const now = await tx.invitation.findUnique({ where: { id: inv.id }, select: { status: true } });
    throw new AppError("conflict", "invitation_decided", `This invitation was already ${now?.status ?? inv.status}; ask an owner of ${inv.workspace.name} to invite you again.`);
  }
  return inv;
}

/**
 * Accepts the user's pending invitation: in one transaction, marks it accepted and creates the
 * membership with the invited role. A user who is already a member keeps their role.
 * @returns the workspace joined, with the user's role there.
 * @throws AppError not_found ("invitation_not_found"), conflict ("invitation_decided").
 */
export async function acceptInvitation(db: Db, userId: string, invitationId: string): Promise<WorkspaceView> {
  return db.$transaction(async (tx) => {
    const inv = await decide(tx, userId, invitationId, "accepted");
    const key = { workspaceId_userId: { workspaceId: inv.workspaceId, userId } };
    const m = await tx.membership.upsert({ where: key, update: {}, create: { workspaceId: inv.workspaceId, userId, role: Role.parse(inv.role) } });
    return { id: inv.workspaceId, name: inv.workspace.name, role: Role.parse(m.role) };
  });
}

/**
 * Declines the user's pending invitation; nothing else changes.
 * @throws AppError not_found ("invitation_not_found"), conflict ("invitation_decided").
 */
export async function declineInvitation(db: Db, userId: string, invitationId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    await decide(tx, userId, invitationId, "declined");
  });
}
