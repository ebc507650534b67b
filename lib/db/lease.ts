import type { Db } from "./client";

/**
 * The thread lease (docs/durability.md#the-lease): which run owns a thread, and which worker
 * executes it until when. Every change is one conditional update, so the database decides
 * races between any number of processes: exactly one run per thread.
 *
 * States of a thread's lease columns:
 * - free: `leaseRunId` null;
 * - queued: `leaseRunId` set, `leaseHolder` null (the run waits for a worker);
 * - held: `leaseHolder` set and `leaseExpiresAt` in the future (a worker executes the run and
 *   renews the expiry with its heartbeat);
 * - lapsed: held, but `leaseExpiresAt` past (the worker died): another worker may claim it and
 *   continue the run from its last checkpoint.
 *
 * Knows nothing of the engine, so the memory services can ask it without importing runs.
 */

/** A Prisma client or an interactive transaction's client. */
type Tx = Pick<Db, "thread">;

/** How long a claim lasts without a heartbeat, in ms (a dead worker's run waits this long). */
export const LEASE_TTL_MS = 10_000;

/** How often a holder renews its lease, in ms (a third of the TTL: two renewals may fail). */
export const HEARTBEAT_MS = Math.floor(LEASE_TTL_MS / 3);

/**
 * Takes a free thread's lease for a new run (queued: no holder yet).
 * @returns false when another run owns the thread (the caller answers 409 run_in_progress).
 */
export async function takeLease(tx: Tx, threadId: string, runId: string): Promise<boolean> {
  const res = await tx.thread.updateMany({ where: { id: threadId, leaseRunId: null }, data: { leaseRunId: runId, leaseHolder: null, leaseExpiresAt: null } });
  return res.count === 1;
}

/**
 * Takes a free thread's lease held at once by `holder` until `now + ttlMs`, for work done
 * outside a run (an upload writing files, docs/documents.md "Upload"): one conditional
 * update, outside any transaction. The holder renews it with {@link renewLease}
 * (`runId` = `holder`) and frees it with {@link releaseLease}; if it dies, the lease lapses
 * like a dead worker's, and recovery frees it, since no run job has that id.
 * @returns false when a run owns the thread.
 */
export async function takeHeldLease(tx: Tx, threadId: string, holder: string, now: number, ttlMs = LEASE_TTL_MS): Promise<boolean> {
  const res = await tx.thread.updateMany({ where: { id: threadId, leaseRunId: null }, data: { leaseRunId: holder, leaseHolder: holder, leaseExpiresAt: new Date(now + ttlMs) } });
  return res.count === 1;
}

/**
 * A worker claims the run's lease: only when the run owns the thread and no live holder has
 * it (queued, or lapsed at `now`).
 * @param ttlMs how long the claim lasts without a heartbeat, ms.
 * @returns false when the run does not own the thread or another worker holds it.
 */
export async function claimLease(tx: Tx, threadId: string, runId: string, holder: string, now: number, ttlMs = LEASE_TTL_MS): Promise<boolean> {
  const res = await tx.thread.updateMany({
    where: { id: threadId, leaseRunId: runId, OR: [{ leaseHolder: null }, { leaseExpiresAt: { lt: new Date(now) } }] },
    data: { leaseHolder: holder, leaseExpiresAt: new Date(now + ttlMs) },
  });
  return res.count === 1;
}

/**
 * The holder's heartbeat: pushes the expiry forward.
 * @returns false when the holder lost the lease (it lapsed and another worker claimed it):
 *   the holder must stop executing the run at once.
 */
export async function renewLease(tx: Tx, threadId: string, runId: string, holder: string, now: number, ttlMs = LEASE_TTL_MS): Promise<boolean> {
  const res = await tx.thread.updateMany({ where: { id: threadId, leaseRunId: runId, leaseHolder: holder }, data: { leaseExpiresAt: new Date(now + ttlMs) } });
  return res.count === 1;
}

/** Frees the thread when the run that owns it ended. @returns false when the run did not own it. */
export async function releaseLease(tx: Tx, threadId: string, runId: string): Promise<boolean> {
  const res = await tx.thread.updateMany({ where: { id: threadId, leaseRunId: runId }, data: { leaseRunId: null, leaseHolder: null, leaseExpiresAt: null } });
  return res.count === 1;
}

/** The run that owns the thread (queued or executing), or null when it is free. */
export async function leaseRunOf(tx: Tx, threadId: string): Promise<string | null> {
  const t = await tx.thread.findUnique({ where: { id: threadId }, select: { leaseRunId: true } });
  return t?.leaseRunId ?? null;
}

/** Threads whose holder's lease lapsed before `now` (their worker died), oldest first. */
export async function lapsedLeases(tx: Tx, now: number, take = 50): Promise<{ threadId: string; runId: string; holder: string }[]> {
  const rows = await tx.thread.findMany({
    where: { leaseRunId: { not: null }, leaseHolder: { not: null }, leaseExpiresAt: { lt: new Date(now) } },
    orderBy: { leaseExpiresAt: "asc" },
    take,
    select: { id: true, leaseRunId: true, leaseHolder: true },
  });
  return rows.map((r) => ({ threadId: r.id, runId: r.leaseRunId ?? "", holder: r.leaseHolder ?? "" }));
}
