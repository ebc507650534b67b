import "server-only";
import type { Db } from "../db/client";
import { type Role, roleIn, threadAccess } from "../db/workspaces";
import { AppError } from "../errors";

/**
 * Who may do what with memory (docs/architecture.md#memory, docs/security.md#roles-and-powers): any member of a
 * workspace reads its memory; owners and approvers add, accept and forget facts; a thread's
 * own user or a workspace owner deletes the thread or clears its short-term memory. A
 * workspace, fact or thread of a workspace the user is not in answers 404, as if it did not
 * exist.
 */

/**
 * The user's role in a workspace.
 * @throws AppError not_found ("workspace_not_found") when the user is not a member.
 */
export async function memberRole(db: Db, userId: string, workspaceId: string): Promise<Role> {
  const role = await roleIn(db, userId, workspaceId);
  if (!role) throw new AppError("not_found", "workspace_not_found", `No workspace ${workspaceId}.`);
  return role;
}

/**
 * Throws unless the role may change long-term memory (owner or approver).
 * @throws AppError forbidden ("role_forbidden").
 */
export function requireFactEditor(role: Role): void {
  if (role !== "owner" && role !== "approver") {
    throw new AppError("forbidden", "role_forbidden", `Your role in this workspace is ${role}; it cannot change memory. Ask an owner for another role.`);
  }
}

/**
 * A fact the user may see, with the user's role in its workspace.
 * @throws AppError not_found ("fact_not_found") when it does not exist or is in another workspace.
 */
export async function factAccess(db: Db, userId: string, factId: string): Promise<{ fact: { id: string; workspaceId: string }; role: Role }> {
  const fact = await db.memoryFact.findUnique({ where: { id: factId }, select: { id: true, workspaceId: true } });
  const role = fact ? await roleIn(db, userId, fact.workspaceId) : null;
  if (!fact || !role) throw new AppError("not_found", "fact_not_found", `No fact ${factId}.`);
  return { fact, role };
}

/**
 * A thread the user may see, checked for a destructive action (delete, clear memory): only
 * the user who started it or a workspace owner.
 * @throws AppError not_found (not a member); forbidden ("thread_owner_only").
 */
export async function threadForErasure(db: Db, userId: string, threadId: string) {
  const access = await threadAccess(db, userId, threadId);
  if (access.thread.userId !== userId && access.role !== "owner") {
    throw new AppError("forbidden", "thread_owner_only", "Only the user who started this thread or a workspace owner can erase it or its memory.");
  }
  return access;
}
