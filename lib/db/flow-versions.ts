import "server-only";
import { AppError } from "../errors";
import { FlowDocument } from "../flow/schema";
import type { Db } from "./client";
import { saveFlowVersion } from "./flows";
import { emailsOf } from "./users";
import { requireCapability } from "../auth/roles";
import { type Caller, flowAccess } from "../auth/membership";

/**
 * The history of a flow (docs/architecture.md#flows-and-compilation): every save is an immutable version with its
 * author, time and message; any version can be read, compared, run (lib/db/threads.ts) or
 * restored as a new version. Members of the flow's workspace see it; only owners restore.
 * Another workspace's flow is missing (404), as everywhere.
 */

/** One version in the history list. */
export interface VersionSummary {
  id: string;
  /** 1, 2, 3… in save order. */
  version: number;
  message: string;
  authorId: string;
  /** The author's email, or "" when the account is gone. */
  authorEmail: string;
  createdAt: Date;
  /** Threads (runs) started on this version. */
  runs: number;
}

/** One version with its parsed document. */
export interface VersionDetail extends VersionSummary {
  document: FlowDocument;
}

/**
 * The versions of a flow the user may see, newest first, with author emails and how many
 * threads ran on each.
 * `userId`: a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 * @throws AppError not_found ("flow_not_found") when the flow does not exist or is in a
 *   workspace the user is not a member of.
 */
export async function listVersions(db: Db, userId: Caller, flowId: string): Promise<VersionSummary[]> {
  await flowAccess(db, userId, flowId);
  const rows = await db.flowVersion.findMany({
    where: { flowId },
    orderBy: { version: "desc" },
    select: { id: true, version: true, message: true, authorId: true, createdAt: true, _count: { select: { threads: true } } },
  });
  const emails = await emailsOf(
    db,
    rows.map((r) => r.authorId),
  );
  return rows.map(({ _count, ...r }) => ({ ...r, authorEmail: emails.get(r.authorId) ?? "", runs: _count.threads }));
}

/**
 * One version of a flow the user may see, with its document parsed by the current flow
 * schema (so documents saved before a field existed get its default).
 * @param version the version number, 1-based.
 * `userId`: a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 * @throws AppError not_found: "flow_not_found" (missing or another workspace's flow),
 *   "version_not_found" naming the version.
 */
export async function getVersion(db: Db, userId: Caller, flowId: string, version: number): Promise<VersionDetail> {
  await flowAccess(db, userId, flowId);
  return findVersion(db, flowId, version);
}

/**
 * Restores a version by saving its document as the flow's next version, with the message
 * `Restored v{N}` (versions are never changed). Owners only. Two saves racing
 * for the same number: one loses with a conflict, as in `saveFlowVersion`.
 * @param version the version number to restore, 1-based.
 * @returns the new version row (its `version` is the new number).
 * `userId`: a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 * @throws AppError not_found ("flow_not_found", "version_not_found"), forbidden
 *   ("role_forbidden": approvers and viewers), conflict ("version_conflict").
 */
export async function restoreVersion(db: Db, userId: Caller, flowId: string, version: number) {
  const { role } = await flowAccess(db, userId, flowId);
  requireCapability(role, "edit");
  const source = await findVersion(db, flowId, version);
  return saveFlowVersion(db, userId, flowId, source.document, `Restored v${source.version}`);
}

/**
 * A flow's version by number, without an access check (callers check it first).
 * @throws AppError not_found "version_not_found", naming the version.
 */
async function findVersion(db: Db, flowId: string, version: number): Promise<VersionDetail> {
  const row = await db.flowVersion.findUnique({
    where: { flowId_version: { flowId, version } },
    select: { id: true, version: true, message: true, authorId: true, createdAt: true, document: true, _count: { select: { threads: true } } },
  });
  if (!row) throw new AppError("not_found", "version_not_found", `version: this flow has no version ${version}.`);
  const { _count, document, ...rest } = row;
  const authorEmail = (await emailsOf(db, [row.authorId])).get(row.authorId) ?? "";
  return { ...rest, authorEmail, runs: _count.threads, document: FlowDocument.parse(JSON.parse(document)) };
}
