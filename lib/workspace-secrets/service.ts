import "server-only";
import type { Db } from "../db/client";
import { prismaErrorCode } from "../db/prisma-error-code";
import { type Caller, callerId, workspaceRole } from "../auth/membership";
import { requireCapability } from "../auth/roles";
import { AppError } from "../errors";
import { logger } from "../log";
import { sealSecretValue } from "./box";
import type { SecretInput, SecretReplace } from "./input";

/**
 * A workspace's secrets (docs/secrets.md "Managing secrets"): every member lists their names,
 * hosts and dates; only owners add, replace and delete them. A value is write-only: no
 * answer ever carries it. Each change is one line of the server log (`secret created`,
 * `secret replaced`, `secret deleted`: workspace, name, actor; never the value). A
 * non-member gets 404 for everything.
 */

const log = logger.child({ module: "workspace-secrets" });

/** A secret as the API and Settings show it: never its value. */
export interface SecretView {
  name: string;
  /** Hosts it may be sent to, canonical (`api.example.com`, `*.example.com`, `host:port`). */
  hosts: string[];
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  /** When a tool call last carried it (ISO 8601); null when never. */
  lastUsedAt: string | null;
}

type Row = { name: string; hosts: string; createdById: string; createdAt: Date; updatedAt: Date; lastUsedAt: Date | null };
const select = { name: true, hosts: true, createdById: true, createdAt: true, updatedAt: true, lastUsedAt: true } as const;

/** The host entries stored in `WorkspaceSecret.hosts` (a JSON array); [] when unreadable. */
export function storedHosts(json: string): string[] {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((h): h is string => typeof h === "string") : [];
  } catch {
    return [];
  }
}

async function viewsOf(db: Db, rows: Row[]): Promise<SecretView[]> {
  const ids = [...new Set(rows.map((r) => r.createdById))];
  const users = ids.length === 0 ? [] : await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, name: true, email: true } });
  const who = (id: string) => {
    const u = users.find((x) => x.id === id);
    return u ? u.name?.trim() || u.email : null;
  };
  return rows.map((r) => ({
    name: r.name,
    hosts: storedHosts(r.hosts),
    createdBy: who(r.createdById),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  }));
}

/**
 * Throws unless the user is a member (any role), or an owner when `owner` is set. `userId`
 * is a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 * @throws AppError not_found ("workspace_not_found") for a non-member; forbidden
 *   ("role_forbidden") for approvers and viewers when `owner` is set.
 */
async function requireRole(db: Db, userId: Caller, workspaceId: string, owner: boolean): Promise<void> {
  const role = await workspaceRole(db, userId, workspaceId);
  if (owner) requireCapability(role, "manage", SECRETS_REFUSAL);
}

/** What the 403 says to members who cannot manage secrets (lib/auth/roles.ts `requireCapability`). */
export const SECRETS_REFUSAL = "only owners add, replace and delete its secrets. Ask an owner.";

/**
 * The workspace's secrets by name (names, hosts, dates; never values). Any member.
 * @throws AppError as {@link requireRole}.
 */
export async function listSecrets(db: Db, userId: Caller, workspaceId: string): Promise<SecretView[]> {
  await requireRole(db, userId, workspaceId, false);
  return viewsOf(db, await db.workspaceSecret.findMany({ where: { workspaceId }, orderBy: { name: "asc" }, select }));
}

/**
 * Adds a secret; the value is sealed and never shown again.
 * @throws AppError as {@link requireRole} (owners only); conflict ("secret_exists") when the
 *   workspace already has the name.
 */
export async function addSecret(db: Db, userId: Caller, workspaceId: string, input: SecretInput): Promise<SecretView> {
  await requireRole(db, userId, workspaceId, true);
  try {
    const row = await db.workspaceSecret.create({
      data: { workspaceId, name: input.name, sealedValue: sealSecretValue(input.value), hosts: JSON.stringify(input.hosts), createdById: callerId(userId) },
      select,
    });
    log.info({ workspaceId, secret: input.name, actorId: callerId(userId), hosts: input.hosts }, "secret created");
    const [view] = await viewsOf(db, [row]);
    if (!view) throw new Error("unreachable: a created secret has a view");
    return view;
  } catch (err) {
    if (prismaErrorCode(err) === "P2002") throw new AppError("conflict", "secret_exists", `This workspace already has a secret ${input.name}; replace it (PUT) or choose another name.`);
    throw err;
  }
}

/**
 * Replaces a secret's value, its hosts, or both (one conditional update).
 * @throws AppError as {@link requireRole} (owners only); not_found ("secret_not_found").
 */
export async function replaceSecret(db: Db, userId: Caller, workspaceId: string, name: string, patch: SecretReplace): Promise<SecretView> {
  await requireRole(db, userId, workspaceId, true);
  const data = { ...(patch.value !== undefined ? { sealedValue: sealSecretValue(patch.value) } : {}), ...(patch.hosts ? { hosts: JSON.stringify(patch.hosts) } : {}) };
  const { count } = await db.workspaceSecret.updateMany({ where: { workspaceId, name }, data });
  if (count === 0) throw new AppError("not_found", "secret_not_found", `No secret ${name} in this workspace.`);
  log.info({ workspaceId, secret: name, actorId: callerId(userId), value: patch.value !== undefined, hosts: patch.hosts ?? null }, "secret replaced");
  const [view] = await viewsOf(db, [await db.workspaceSecret.findUniqueOrThrow({ where: { workspaceId_name: { workspaceId, name } }, select })]);
  if (!view) throw new Error("unreachable: a secret has a view");
  return view;
}

/**
 * Deletes a secret; calls that refer to it are refused from then on ("unknown_secret").
 * @throws AppError as {@link requireRole} (owners only); not_found ("secret_not_found").
 */
export async function deleteSecret(db: Db, userId: Caller, workspaceId: string, name: string): Promise<void> {
  await requireRole(db, userId, workspaceId, true);
  const { count } = await db.workspaceSecret.deleteMany({ where: { workspaceId, name } });
  if (count === 0) throw new AppError("not_found", "secret_not_found", `No secret ${name} in this workspace.`);
  log.info({ workspaceId, secret: name, actorId: callerId(userId) }, "secret deleted");
}
