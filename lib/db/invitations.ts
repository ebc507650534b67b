import "server-only";
import { z } from "zod";
import { AppError } from "../errors";
import type { Db } from "./client";
import { Role, requireCapability } from "../auth/roles";
import { type Caller, callerId, workspaceRole } from "../auth/membership";

/**
 * Invitations, the owner's side (docs/security.md "Membership"): adding someone to a workspace
 * creates a pending invitation that the invitee accepts or declines in the app; no membership
 * exists until they accept (lib/db/invitation-answers.ts). The answer to an invitation never
 * says whether the email has an account or is already a member: every email takes the same
 * path, with no lookup of accounts or memberships, so the status, the body's shape and the
 * work done are the same.
 */

/** At most this many pending invitations per workspace (docs/security.md "Input limits"). */
export const MAX_PENDING_INVITATIONS = 100;

/** What an owner sends to invite someone: an email (any; it need not have an account yet) and a role. */
export const InvitationInput = z.object({
  email: z.string().trim().toLowerCase().max(254, "Emails are at most 254 characters.").email("Enter the email of the person to invite, e.g. approver@example.com."),
  role: Role,
});
export type InvitationInput = z.infer<typeof InvitationInput>;

/** A pending invitation as its workspace's owners see it. */
export interface InvitationView {
  id: string;
  /** The invitee's email, lower-case. */
  email: string;
  /** The role the invitee gets on accepting. */
  role: Role;
  /** Email of the owner who sent (or last renewed) it. */
  invitedBy: string;
  /** When it was sent or last renewed, ISO 8601. */
  createdAt: string;
}

type Row = { id: string; email: string; role: string; createdAt: Date; invitedBy: { email: string } };
const withInviter = { invitedBy: { select: { email: true } } } as const;
const view = (r: Row): InvitationView => ({ id: r.id, email: r.email, role: Role.parse(r.role), invitedBy: r.invitedBy.email, createdAt: r.createdAt.toISOString() });

/** 404 for non-members (the workspace does not exist for them), 403 for members who cannot manage. `actorId`: a user id, or the route's resolved access (lib/auth/membership.ts `Caller`). */
async function requireOwner(db: Db, actorId: Caller, workspaceId: string): Promise<void> {
  requireCapability(await workspaceRole(db, actorId, workspaceId), "manage");
}

/**
 * Invites `input.email` into a workspace with a role (owners only), or renews the pending,
 * accepted, declined or revoked invitation of that email there: it becomes pending again with
 * a new id (an old link cannot accept the new role), the new role and the actor as inviter.
 * Whether the email has an account, or is already a member, changes nothing in the answer
 * (docs/security.md "Membership"); accepting as an existing member keeps their current role.
 * @returns the pending invitation.
 * @throws AppError not_found ("workspace_not_found") when the actor is not a member,
 *   forbidden ("role_forbidden") when not an owner, conflict ("too_many_invitations") past
 *   {@link MAX_PENDING_INVITATIONS} pending invitations.
 */
export async function inviteMember(db: Db, actorId: Caller, workspaceId: string, input: InvitationInput): Promise<InvitationView> {
  await requireOwner(db, actorId, workspaceId);
  const { email, role } = InvitationInput.parse(input);
  return db.$transaction(async (tx) => {
    const others = await tx.invitation.count({ where: { workspaceId, status: "pending", NOT: { email } } });
    if (others >= MAX_PENDING_INVITATIONS) {
      throw new AppError("conflict", "too_many_invitations", `This workspace has ${others} pending invitations; revoke some in Settings before inviting more.`);
    }
    await tx.invitation.deleteMany({ where: { workspaceId, email } });
    const row = await tx.invitation.create({ data: { workspaceId, email, role, invitedById: callerId(actorId) }, include: withInviter });
    return view(row);
  });
}

/**
 * The pending invitations of a workspace, newest first (owners only).
 * @throws AppError not_found ("workspace_not_found"), forbidden ("role_forbidden").
 */
export async function listInvitations(db: Db, actorId: Caller, workspaceId: string): Promise<InvitationView[]> {
  await requireOwner(db, actorId, workspaceId);
  const rows = await db.invitation.findMany({ where: { workspaceId, status: "pending" }, include: withInviter, orderBy: [{ createdAt: "desc" }, { id: "asc" }] });
  return rows.map(view);
}

/**
 * Revokes a pending invitation (owners only): the invitee can no longer accept it.
 * One conditional update, so a revoke racing an accept has a single winner.
 * @throws AppError not_found ("workspace_not_found"; "invitation_not_found" when it is not a
 *   pending invitation of this workspace), forbidden ("role_forbidden").
 */
export async function revokeInvitation(db: Db, actorId: Caller, workspaceId: string, invitationId: string): Promise<void> {
  await requireOwner(db, actorId, workspaceId);
  const { count } = await db.invitation.updateMany({ where: { id: invitationId, workspaceId, status: "pending" }, data: { status: "revoked", decidedAt: new Date() } });
  if (count === 0) throw new AppError("not_found", "invitation_not_found", `No pending invitation ${invitationId} in this workspace; reload the page to see the current ones.`);
}
