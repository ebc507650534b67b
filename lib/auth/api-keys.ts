import "server-only";
import { z } from "zod";
import type { Db } from "../db/client";
import { roleIn } from "./membership";
import { AppError } from "../errors";
import { apiKeyPrefix, hashApiKey, newApiKey } from "./api-key-format";

/**
 * A user's API keys (docs/api.md "API keys"): made, listed and revoked by the user in a
 * session. A key acts as its user with that user's roles; one made for a workspace reaches
 * only that workspace. Only the key's SHA-256 and its first 12 characters are stored: the
 * key itself is returned once, by {@link createApiKey}.
 */

/** A key's name: 1-80 characters after trimming. */
export const ApiKeyName = z.string().trim().min(1, "give the key a name").max(80, "a key name is at most 80 characters");

/** Options of a new key: its name and, optionally, the one workspace it reaches. */
export const NewApiKey = z.object({ name: ApiKeyName, workspaceId: z.string().min(1).max(64).optional() });
export type NewApiKey = z.input<typeof NewApiKey>;

/** A key as Settings and `GET /api/keys` show it; never its hash. Dates are ISO 8601. */
export interface ApiKeyView {
  id: string;
  name: string;
  /** "phy_" and the key's next 8 characters. */
  prefix: string;
  /** The one workspace the key reaches; null for every workspace of its user. */
  workspaceId: string | null;
  workspaceName: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const select = {
  id: true,
  name: true,
  prefix: true,
  workspaceId: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  workspace: { select: { name: true } },
} as const;

type Row = { id: string; name: string; prefix: string; workspaceId: string | null; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null; workspace: { name: string } | null };

function view(r: Row): ApiKeyView {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    workspaceId: r.workspaceId,
    workspaceName: r.workspace?.name ?? null,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
    revokedAt: r.revokedAt?.toISOString() ?? null,
  };
}

/**
 * Makes a key for `userId`, named, for every workspace of the user or only `workspaceId`.
 * @returns the key (shown this once; only its hash is kept) and its view.
 * @throws ZodError when the name is empty or longer than 80 characters; AppError not_found
 *   ("workspace_not_found") when the user is not a member of `workspaceId`.
 */
export async function createApiKey(db: Db, userId: string, raw: NewApiKey): Promise<{ key: string; view: ApiKeyView }> {
  const input = NewApiKey.parse(raw);
  if (input.workspaceId !== undefined && !(await roleIn(db, userId, input.workspaceId))) {
    throw new AppError("not_found", "workspace_not_found", `workspaceId: no workspace ${input.workspaceId}; pick one of yours, or none for all of them.`);
  }
  const key = newApiKey();
  const row = await db.apiKey.create({
    data: { userId, name: input.name, prefix: apiKeyPrefix(key), hash: hashApiKey(key), workspaceId: input.workspaceId ?? null },
    select,
  });
  return { key, view: view(row) };
}

/** The user's keys, newest first, revoked ones included (Settings shows them as revoked). */
export async function listApiKeys(db: Db, userId: string): Promise<ApiKeyView[]> {
  const rows = await db.apiKey.findMany({ where: { userId }, orderBy: [{ createdAt: "desc" }, { id: "asc" }], select });
  return rows.map(view);
}

/**
 * Revokes one of the user's keys: from now on it answers 401. Revoking a revoked key changes
 * nothing (its first revocation time stays).
 * @returns the key's view.
 * @throws AppError not_found ("api_key_not_found") when the key is not the user's.
 */
export async function revokeApiKey(db: Db, userId: string, keyId: string, now: Date = new Date()): Promise<ApiKeyView> {
  await db.apiKey.updateMany({ where: { id: keyId, userId, revokedAt: null }, data: { revokedAt: now } });
  const row = await db.apiKey.findFirst({ where: { id: keyId, userId }, select });
  if (!row) throw new AppError("not_found", "api_key_not_found", `No API key ${keyId}; reload Settings to see your keys.`);
  return view(row);
}
