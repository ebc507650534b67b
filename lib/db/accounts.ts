import "server-only";
import bcrypt from "bcryptjs";
import { z } from "zod";
import { PASSWORD_BCRYPT_COST } from "../auth/password";
import { AppError } from "../errors";
import type { Db } from "./client";
import { env } from "../env";
import { type AdminSource, adminIds, requireInstanceAdmin } from "./instance-admin";
import type { AccountView, InstanceWorkspaceView } from "./instance-types";

export type { AccountView, InstanceWorkspaceView };

/**
 * Accounts, as the instance admin manages them (docs/security.md "Roles and powers"): there is
 * no sign-up, so an admin creates accounts; an admin also lists accounts and workspaces (names
 * and counts, never their flows, runs or approvals). Every function checks the admin role.
 */

/** bcrypt cost of new password hashes (the seed's too). */
const BCRYPT_COST = PASSWORD_BCRYPT_COST;

/**
 * A new account: email, optional display name, and a password of 12 to 72 characters, at most
 * 72 bytes in UTF-8 (bcrypt ignores what follows; docs/security.md "Sign-in").
 */
export const NewAccountInput = z.object({
  email: z.string().trim().toLowerCase().max(254, "Emails are at most 254 characters.").email("Enter the new account's email, e.g. someone@example.com."),
  name: z.string().trim().min(1).max(120, "Names are at most 120 characters.").optional(),
  password: z
    .string()
    .min(12, "Passwords need at least 12 characters.")
    .refine((p) => Buffer.byteLength(p, "utf8") <= 72, "Passwords are at most 72 bytes (bcrypt ignores the rest); use a shorter one."),
});
export type NewAccountInput = z.infer<typeof NewAccountInput>;

/** At most this many rows of each list. */
export const INSTANCE_LIST_LIMIT = 500;

/**
 * Creates an account (instance admins only). Pending invitations to its email show up for it.
 * @param adminEmails who the admins are; defaults to `ADMIN_EMAILS` (lib/db/instance-admin.ts).
 * @returns the account.
 * @throws AppError forbidden ("admin_only"), conflict ("account_exists"); ZodError for a
 *   malformed input.
 */
export async function createAccount(db: Db, actorId: string, raw: NewAccountInput, adminEmails: AdminSource = env().ADMIN_EMAILS): Promise<AccountView> {
  await requireInstanceAdmin(db, actorId, adminEmails);
  const input = NewAccountInput.parse(raw);
  if (await db.user.findUnique({ where: { email: input.email }, select: { id: true } })) {
    throw new AppError("conflict", "account_exists", `email: an account with ${input.email} already exists; its owner can sign in with it.`);
  }
  const passwordHash = await bcrypt.hash(input.password, BCRYPT_COST);
  const user = await db.user.create({ data: { email: input.email, name: input.name ?? null, passwordHash } });
  const admins = await adminIds(db, [user], adminEmails);
  return { id: user.id, email: user.email, name: user.name, createdAt: user.createdAt.toISOString(), admin: admins.has(user.id), workspaces: 0 };
}

/**
 * Every account and every workspace, oldest first, up to {@link INSTANCE_LIST_LIMIT} each
 * (instance admins only).
 * @param adminEmails who the admins are; defaults to `ADMIN_EMAILS` (lib/db/instance-admin.ts).
 * @throws AppError forbidden ("admin_only").
 */
export async function instanceOverview(db: Db, actorId: string, adminEmails: AdminSource = env().ADMIN_EMAILS): Promise<{ accounts: AccountView[]; workspaces: InstanceWorkspaceView[] }> {
  await requireInstanceAdmin(db, actorId, adminEmails);
  const [users, spaces] = await Promise.all([
    db.user.findMany({
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: INSTANCE_LIST_LIMIT,
      select: { id: true, email: true, name: true, createdAt: true, _count: { select: { memberships: true } } },
    }),
    db.workspace.findMany({
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: INSTANCE_LIST_LIMIT,
      select: {
        id: true,
        name: true,
        createdAt: true,
        _count: { select: { members: true } },
        members: { where: { role: "owner" }, select: { user: { select: { email: true } } }, orderBy: { createdAt: "asc" } },
      },
    }),
  ]);
  const admins = await adminIds(db, users, adminEmails);
  return {
    accounts: users.map((u) => ({ id: u.id, email: u.email, name: u.name, createdAt: u.createdAt.toISOString(), admin: admins.has(u.id), workspaces: u._count.memberships })),
    workspaces: spaces.map((w) => ({ id: w.id, name: w.name, createdAt: w.createdAt.toISOString(), members: w._count.members, owners: w.members.map((m) => m.user.email) })),
  };
}
