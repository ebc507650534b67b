import "server-only";
import type { Db } from "../db/client";
import { releaseLease } from "../db/lease";
import { CANCEL_REQUESTED } from "./run-cancel";
import { JobInput } from "./run-input";
import type { RunChunk } from "../events/ui-parts";
import { newTraceId, publish } from "../events/bus";
import { busEventsOf, storedEventOf } from "../events/run-events";
import { notifyThreadEvent } from "../events/thread-events";
import { endWaitingRuns } from "../db/waiting-runs";
import { prismaRunStore } from "./store-prisma";

/** How a cancel request was taken: ended at once (it was queued), handed to its worker, or too late. */
export type CancelOutcome = "cancelled" | "requested" | "not_active";

/**
 * Stores and publishes the final run part of a run that no worker executes (a queued run
 * cancelled, a cancel whose worker died), as a worker does: stored first in the run store
 * with the thread's next seq (lib/runs/store.ts), a notification to followers, then the bus
 * event (webhooks, memory hooks).
 * @param at ms since the epoch.
 */
async function recordRunEnd(db: Db, threadId: string, runId: string, jobInput: string, at: number): Promise<void> {
  const parsed = JobInput.safeParse(JSON.parse(jobInput));
  const ids = { traceId: (parsed.success && parsed.data.traceId) || newTraceId(), threadId, runId };
  const chunk: RunChunk = { type: "data-run", id: runId, data: { runId, traceId: ids.traceId, status: "cancelled", model: null, error: null, usage: null } };
  for (const event of busEventsOf(chunk, { plans: new Set(), agent: null }, ids, at)) {
    const stored = storedEventOf(event);
    if (stored) {
      const seq = await prismaRunStore(db).append({ threadId, runId, type: stored.name, data: JSON.stringify(stored.data) });
      void notifyThreadEvent(threadId, seq, runId).catch(() => undefined);
    }
    await publish(event);
  }
}

/**
 * Ends a queued run as cancelled in one transaction (run, job, thread, lease), then records
 * its final part. Used for a run no worker holds.
 * @returns false when the run was no longer queued (a worker claimed it meanwhile).
 */
async function endUnclaimed(db: Db, threadId: string, runId: string, statuses: string[], at: number): Promise<boolean> {
  const job = await db.runJob.findUnique({ where: { runId }, select: { id: true, input: true } });
  if (!job) return false;
  const ended = await db.$transaction(async (tx) => {
    const taken = await tx.runJob.updateMany({ where: { id: job.id, status: { in: statuses } }, data: { status: "done", holder: null } });
    if (taken.count !== 1) return false;
    await tx.run.update({ where: { id: runId }, data: { status: "cancelled", endedAt: new Date(at), error: null } });
    await endWaitingRuns(tx, threadId, runId, "cancelled");
    await tx.thread.update({ where: { id: threadId }, data: { status: "cancelled" } });
    await releaseLease(tx, threadId, runId);
    return true;
  });
  if (ended) await recordRunEnd(db, threadId, runId, job.input, at);
  return ended;
}

/**
 * Cancels a run (docs/durability.md#cancel): a queued run ends at once, as cancelled, with
 * its final part stored and published (webhooks get `run.finished`); a claimed run's job is
 * marked {@link CANCEL_REQUESTED} and its worker, at its next heartbeat (within a third of
 * the lease TTL), aborts the graph and ends the run as cancelled through its normal end
 * (rows, final part, lease). Nothing after the last checkpoint is kept; Continue resumes the
 * thread from there.
 * @param at ms since the epoch.
 * @returns how the request was taken; `not_active` when the run had already ended.
 */
export async function cancelRunJob(db: Db, threadId: string, runId: string, at: number = Date.now()): Promise<CancelOutcome> {
  if (await endUnclaimed(db, threadId, runId, ["queued"], at)) return "cancelled";
  const asked = await db.runJob.updateMany({ where: { runId, status: "claimed" }, data: { status: CANCEL_REQUESTED } });
  if (asked.count === 1) return "requested";
  const job = await db.runJob.findUnique({ where: { runId }, select: { status: true } });
  return job?.status === CANCEL_REQUESTED ? "requested" : "not_active";
}

/**
 * For recovery: a run whose cancel was requested and whose worker died before acting on it
 * ends as cancelled instead of being queued again.
 * @returns true when it ended it.
 */
export function endAbandonedCancel(db: Db, threadId: string, runId: string, at: number): Promise<boolean> {
  return endUnclaimed(db, threadId, runId, [CANCEL_REQUESTED], at);
}
