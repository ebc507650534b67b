import "server-only";
import { env } from "../env";
import { AppError } from "../errors";
import type { Db } from "./client";

/**
 * The instance-admin role (docs/security.md "Roles and powers"): the accounts whose email is in
 * `ADMIN_EMAILS`, or, when it is unset, the first account created (earliest `createdAt`, then
 * smallest id). An admin creates accounts and lists accounts and workspaces; an admin is not a
 * member of any workspace by being admin, so reads no tenant's flows, runs or approvals.
 */

/** Where the role comes from: the `ADMIN_EMAILS` list (lower-case) or, when undefined, the first account. */
export type AdminSource = readonly string[] | undefined;

/**
 * The id of the first account created, or null when there is none.
 */
async function firstAccountId(db: Db): Promise<string | null> {
  const first = await db.user.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  return first?.id ?? null;
}

/**
 * True when the account is an instance admin.
 * @param adminEmails defaults to `ADMIN_EMAILS` from the environment.
 */
export async function isInstanceAdmin(db: Db, userId: string, adminEmails: AdminSource = env().ADMIN_EMAILS): Promise<boolean> {
  if (adminEmails) {
    const user = await db.user.findUnique({ where: { id: userId }, select: { email: true } });
    return Boolean(user && adminEmails.includes(user.email.trim().toLowerCase()));
  }
  return (await firstAccountId(db)) === userId;
}

/**
 * Throws unless the account is an instance admin.
 * @throws AppError forbidden ("admin_only").
 */
export async function requireInstanceAdmin(db: Db, userId: string, adminEmails: AdminSource = env().ADMIN_EMAILS): Promise<void> {
  if (!(await isInstanceAdmin(db, userId, adminEmails))) {
    throw new AppError("forbidden", "admin_only", "Only an instance admin can do this; ask the operator (the admins are ADMIN_EMAILS, or else the first account).");
  }
}

/**
 * Which of the given accounts are admins, for the admin's account list.
 * @param users `{ id, email }` of each account.
 * @returns the ids of the admins among them.
 */
export async function adminIds(db: Db, users: readonly { id: string; email: string }[], adminEmails: AdminSource = env().ADMIN_EMAILS): Promise<Set<string>> {
  if (adminEmails) return new Set(users.filter((u) => adminEmails.includes(u.email.trim().toLowerCase())).map((u) => u.id));
  const first = await firstAccountId(db);
  return new Set(first ? [first] : []);
}
