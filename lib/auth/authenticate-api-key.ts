import "server-only";
import type { Db } from "../db/client";
import { hashApiKey, isApiKeyShaped } from "./api-key-format";

/** Last use is written at most once per this many ms per key. */
export const LAST_USED_GRANULARITY_MS = 60_000;

/** Who a valid key acts for (docs/api.md "API keys"). */
export interface KeyIdentity {
  userId: string;
  email: string;
  keyId: string;
  /** The one workspace the key reaches; null for every workspace of its user. */
  workspaceId: string | null;
}

/**
 * The identity of an API key, or null for a key that is malformed, unknown or revoked. The
 * key is looked up by its SHA-256 (a unique index), so no stored secret is ever compared
 * byte by byte with the input: timing says nothing about stored keys. Records the last use in
 * one conditional update, and only when the stored one is older than a minute, so a busy key
 * costs one write a minute, not one per request.
 * @param now ms since the epoch.
 */
export async function authenticateApiKey(db: Db, raw: string, now: number = Date.now()): Promise<KeyIdentity | null> {
  if (!isApiKeyShaped(raw)) return null;
  const key = await db.apiKey.findUnique({
    where: { hash: hashApiKey(raw) },
    select: { id: true, userId: true, workspaceId: true, revokedAt: true, lastUsedAt: true, user: { select: { email: true } } },
  });
  if (!key || key.revokedAt) return null;
  const stale = new Date(now - LAST_USED_GRANULARITY_MS);
  if (!key.lastUsedAt || key.lastUsedAt < stale) {
    // Conditional: of concurrent requests, one writes.
    await db.apiKey.updateMany({ where: { id: key.id, revokedAt: null, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: stale } }] }, data: { lastUsedAt: new Date(now) } });
  }
  return { userId: key.userId, email: key.user.email, keyId: key.id, workspaceId: key.workspaceId };
}
