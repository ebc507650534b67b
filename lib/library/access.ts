import "server-only";
import type { Db } from "../db/client";
import { roleIn } from "../db/workspaces";
import { AppError } from "../errors";

/**
 * Who may do what with a workspace's library (docs/library.md "Who can do what"): every
 * member lists it; only owners upload and delete, since what they put there reaches every
 * thread of the flows that mount it.
 * @param what "see" (list) or "manage" (upload, delete).
 * @throws AppError not_found ("workspace_not_found") for a non-member, or a workspace outside
 *   the API key's scope; forbidden ("role_forbidden") for approvers and viewers managing.
 */
export async function requireLibraryAccess(db: Db, userId: string, workspaceId: string, what: "see" | "manage"): Promise<void> {
  const role = await roleIn(db, userId, workspaceId);
  if (!role) throw new AppError("not_found", "workspace_not_found", `No workspace ${workspaceId}.`);
  if (what === "manage" && role !== "owner") {
    throw new AppError("forbidden", "role_forbidden", `Your role in this workspace is ${role}; only owners upload and delete library files. Ask an owner.`);
  }
}
