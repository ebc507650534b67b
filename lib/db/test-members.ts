import type { Db } from "./client";
import { acceptInvitation } from "./invitation-answers";
import { inviteMember } from "./invitations";
import type { MemberView } from "./members";
import type { Role } from "../auth/roles";

/**
 * For tests: puts an existing account into a workspace the way the product does, by consent
 * (docs/security.md "Membership"): `actorId` (an owner) invites the email, then the account
 * accepts.
 * @returns the new member as the member list shows them.
 * @throws Error when no account has the email; AppError as {@link inviteMember} and
 *   {@link acceptInvitation} throw.
 */
export async function addMember(db: Db, actorId: string, workspaceId: string, input: { email: string; role: Role }): Promise<MemberView> {
  const email = input.email.trim().toLowerCase();
  const user = await db.user.findUnique({ where: { email } });
  if (!user) throw new Error(`test setup: no account ${email}`);
  const invitation = await inviteMember(db, actorId, workspaceId, { email, role: input.role });
  await acceptInvitation(db, user.id, invitation.id);
  const m = await db.membership.findUniqueOrThrow({ where: { workspaceId_userId: { workspaceId, userId: user.id } } });
  return { userId: user.id, email: user.email, name: user.name, role: m.role as Role, since: m.createdAt.toISOString() };
}
