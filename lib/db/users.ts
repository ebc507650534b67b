import "server-only";
import type { Db } from "./client";

/**
 * Emails of the given user ids, in one query (ids that are null, repeated or unknown are
 * skipped): how pages and the inbox name who requested, decided or acted.
 */
export async function emailsOf(db: Db, ids: readonly (string | null | undefined)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  if (wanted.length === 0) return new Map();
  const users = await db.user.findMany({ where: { id: { in: wanted } }, select: { id: true, email: true } });
  return new Map(users.map((u) => [u.id, u.email]));
}
