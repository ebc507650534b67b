import "server-only";
import type { Db } from "../db/client";
import { type Caller, callerId, threadAccess } from "../auth/membership";
import { AppError } from "../errors";

/**
 * Who may do what with memory (docs/architecture.md#memory, docs/security.md#roles-and-powers): any member of a
 * workspace reads its memory ("see"); owners and approvers add, accept and forget facts
 * ("remember", lib/auth/roles.ts); a thread's own user or a workspace owner deletes the
 * thread or clears its short-term memory. A workspace, fact or thread of a workspace the
 * user is not in answers 404, as if it did not exist. The routes declare the capability to
 * the route wrapper (lib/http/with-user.ts `need`).
 */

/** What the 403 says to a role that cannot change memory (lib/auth/roles.ts `requireCapability`). */
export const MEMORY_REFUSAL = "it cannot change memory. Ask an owner for another role.";

/**
 * A thread the user may see, checked for a destructive action (delete, clear memory): only
 * the user who started it or a workspace owner.
 * @param userId a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 * @throws AppError not_found (not a member); forbidden ("thread_owner_only").
 */
export async function threadForErasure(db: Db, userId: Caller, threadId: string) {
  const access = await threadAccess(db, userId, threadId);
  if (access.thread.userId !== callerId(userId) && access.role !== "owner") {
    throw new AppError("forbidden", "thread_owner_only", "Only the user who started this thread or a workspace owner can erase it or its memory.");
  }
  return access;
}
