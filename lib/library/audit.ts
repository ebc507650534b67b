import "server-only";
import type { Db } from "../db/client";
import type { LibraryAuditEntry, LibraryAuditSink } from "../tools/library";
import type { LibraryAuditLog } from "./demo-library";

/**
 * The library in the audit trail the rest of the product uses (docs/library.md "Audit"):
 * each upload and delete is an `AuditEntry` row of the workspace (`workspaceId` set,
 * `threadId` null), shown in the audit trail of every thread of that workspace, and removed
 * with the workspace (the rows cascade).
 */

/** Library actions in the audit trail. */
export const LIBRARY_ACTIONS = ["library_upload", "library_delete"] as const;

/** Records library changes of `workspaceId` as audit-trail rows. */
export function libraryAuditSink(db: Db, workspaceId: string): LibraryAuditSink {
  return async (entry: LibraryAuditEntry) => {
    const { at, actorId, action, ...detail } = entry;
    await db.auditEntry.create({ data: { threadId: null, workspaceId, actorId, action, detail: JSON.stringify({ at, detail }), createdAt: new Date(at) } });
  };
}

/**
 * The library's audit-trail rows of a workspace, oldest first.
 * @returns entries in the shape they were recorded in.
 */
export async function libraryAudit(db: Db, workspaceId: string): Promise<LibraryAuditEntry[]> {
  const rows = await db.auditEntry.findMany({ where: { workspaceId, threadId: null, action: { in: [...LIBRARY_ACTIONS] } }, orderBy: { createdAt: "asc" } });
  return rows.map((r) => {
    const parsed = JSON.parse(r.detail) as { at: string; detail: Omit<LibraryAuditEntry, "at" | "actorId" | "action"> };
    return { at: parsed.at, actorId: r.actorId ?? "", action: r.action as LibraryAuditEntry["action"], ...parsed.detail };
  });
}

/**
 * A thread's audit trail as the audit page shows it (docs/library.md "Audit"): its own rows,
 * and the library rows of its workspace (what every thread of the workspace may mount),
 * oldest first.
 */
export async function threadAuditTrail(db: Db, threadId: string, workspaceId: string) {
  return db.auditEntry.findMany({
    where: { OR: [{ threadId }, { threadId: null, workspaceId, action: { in: [...LIBRARY_ACTIONS] } }] },
    orderBy: { createdAt: "asc" },
  });
}

/** The audit trail of `workspaceId`'s library in `db`: its sink and its recorded entries. */
export function libraryAuditLog(db: Db, workspaceId: string): LibraryAuditLog {
  return { sink: libraryAuditSink(db, workspaceId), entries: () => libraryAudit(db, workspaceId) };
}
