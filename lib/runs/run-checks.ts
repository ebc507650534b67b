import "server-only";
import { expireChallenge } from "../approvals/service";
import type { Db } from "../db/client";
import { accessSqlOf } from "../db/checkpointer-stores";
import { type Role, requireCapability } from "../auth/roles";
import { type Caller, callerId, threadAccess, threadWithOwnerRole } from "../auth/membership";
import { AppError } from "../errors";
import type { RunInput } from "./run-input";

import type { CheckedThread } from "./run-context";

/**
 * Everything that refuses a run before any work (docs/architecture.md#runs-jobs-and-leases):
 * the thread must be in a workspace of the user (404); messages, answers and continues come
 * only from the thread's own user (403); decisions need the owner or approver role (403);
 * a decision on an expired challenge gets 410 (checked before the lease, so the answer names
 * the expiry even while the sweeper's run tells the thread);
 * no other run may own the thread (409 run_in_progress: a cheap early answer; the lease taken
 * when the run is accepted is what decides races).
 * The expiry sweeper's `expired` input is internal and reads the thread as it is.
 * @param who the requester's user id, or the access the route wrapper resolved for them (no second lookup).
 * @throws AppError not_found, forbidden or conflict, with the status the route returns.
 */
export async function checkRun(db: Db, threadId: string, who: Caller, input: RunInput, now: () => number = Date.now): Promise<CheckedThread & { role: Role | null }> {
  const userId = callerId(who);
  let thread: CheckedThread;
  let role: Role | null = null;
  if (input.kind === "expired") {
    thread = await threadWithOwnerRole(db, threadId);
  } else {
    const access = await threadAccess(db, who, threadId);
    thread = access.thread;
    role = access.role;
    if (input.kind === "decision" || input.kind === "outcome") requireCapability(access.role, "decide");
    else {
      requireCapability(access.role, "run");
      if (thread.userId !== userId)
        throw new AppError("forbidden", "thread_owner_only", "Only the user who started this thread can send it messages; decide its approvals from the cards or the inbox.");
    }
  }
  // A decision on an expired challenge is told so (410) whatever else holds the thread: the
  // expiry sweeper's own run may own it at that very moment, telling the run.
  if (input.kind === "decision") {
    const a = await approvalState(db, input.approvalId, threadId);
    if (a && (a.status === "expired" || (a.status === "pending" && a.expiresAt.getTime() <= now()))) {
      if (a.status === "pending") await expireChallenge({ db, now }, input.approvalId);
      throw new AppError("gone", "approval_expired", `This approval expired at ${a.expiresAt.toISOString()}; the run was told.`);
    }
  }
  // The thread was read just now (by this check or the request's route wrapper).
  if (thread.leaseRunId) throw runInProgress();
  return Object.assign(thread, { role });
}

/** An approval's status and expiry when it belongs to the thread: one statement on the driver for a root client (lib/db/access-sql.ts), else Prisma. */
async function approvalState(db: Db, approvalId: string, threadId: string): Promise<{ status: string; expiresAt: Date } | null> {
  const sql = accessSqlOf(db);
  if (!sql) return db.approval.findFirst({ where: { id: approvalId, threadId }, select: { status: true, expiresAt: true } });
  const found = await sql.approvalWithRole(approvalId, null);
  return found?.approval.threadId === threadId ? found.approval : null;
}

/** The 409 every refused concurrent run gets, whichever check caught it. */
export function runInProgress(): AppError {
  return new AppError("conflict", "run_in_progress", "A run is already going on this thread; wait for it to finish, or follow it live.");
}
