import "server-only";
import type { Db } from "../db/client";
import { CANCEL_REQUESTED } from "./run-cancel";
import type { RunDepsOverrides } from "./run-context";
import { finishEndedRun } from "./run-end-recovery";
import { executeJob } from "./run-execute";
import { newWorkerId } from "./run-thread";
import type { RunStore } from "./store";
import { prismaRunStore } from "./store-prisma";
import { logger } from "../log";
import { endAbandonedCancel } from "./cancel-run";
import { pgBossQueue } from "./pg-boss-queue";
import type { RunQueue } from "./queue";
import { tableQueue } from "./table-queue";

const log = logger.child({ module: "worker" });

/** How often a worker looks for lapsed leases and stale queued jobs, ms. */
export const RECOVERY_SWEEP_MS = 2_000;

/** A queued job not claimed within this long is dispatched again (its dispatch may be lost), ms. */
export const STALE_QUEUED_MS = 10_000;

/** Claims of one job (recoveries included) after which recovery gives up and asks a person. */
export const MAX_ATTEMPTS = 5;

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  db: Db;
  /** The database URL: postgresql://… selects pg-boss, anything else the RunJob table queue. */
  databaseUrl: string;
  /** Run slots executed at once. */
  concurrency: number;
  /** Overrides of the runs' services (tests). */
  deps?: RunDepsOverrides;
  /** Lease length without a heartbeat, ms (tests shorten it). */
  leaseTtlMs?: number;
  recoverySweepMs?: number;
  /** Called with each stored run event (live followers of this process). */
  onStored?: (threadId: string, seq: number) => void;
}

/** A started worker. */
export interface Worker {
  id: string;
  queue: RunQueue;
  /** Looks for lapsed leases and stale jobs once (the sweeper does it every RECOVERY_SWEEP_MS). */
  recover(): Promise<number>;
  /** Stops taking jobs and waits for the running ones to end. */
  stop(): Promise<void>;
}

/** The queue for a database URL: pg-boss on PostgreSQL, the RunJob table elsewhere. */
export function queueFor(db: Db, databaseUrl: string): RunQueue {
  return /^postgres(ql)?:\/\//.test(databaseUrl) ? pgBossQueue(databaseUrl) : tableQueue(db);
}

/**
 * Starts a run worker (docs/durability.md#runs-are-jobs): consumes the queue with
 * `concurrency` slots, each executing one job at a time through executeJob (claims under the
 * thread's lease, heartbeat, events stored in order), and sweeps every RECOVERY_SWEEP_MS for
 * runs whose worker died (their lease lapsed): each is queued again and continues from its
 * last checkpoint, within seconds of the lapse. A job claimed MAX_ATTEMPTS times is not
 * retried again: its run is marked interrupted, and the thread offers Continue to a person.
 * On the embedded default the web process starts one (instrumentation.ts); `npm run worker`
 * starts one in its own process.
 */
export async function startWorker(opts: WorkerOptions): Promise<Worker> {
  const { db } = opts;
  const id = newWorkerId("worker");
  const queue = queueFor(db, opts.databaseUrl);
  const handler = async (jobId: string) => {
    try {
      const it = executeJob({
        db,
        jobId,
        workerId: id,
        ...(opts.deps ? { deps: opts.deps } : {}),
        ...(opts.leaseTtlMs ? { leaseTtlMs: opts.leaseTtlMs } : {}),
        ...(opts.onStored ? { onStored: opts.onStored } : {}),
      });
      while (!(await it.next()).done) {
        // drain: every chunk is stored as a run event; followers read them from there
      }
    } catch (err) {
      log.error({ err, jobId }, "run job failed");
    }
  };
  const recover = () => recoverRuns(db, queue, Date.now(), id);
  await queue.consume(handler, opts.concurrency);
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    recover()
      .catch((err: unknown) => log.error({ err }, "recovery sweep failed"))
      .finally(() => {
        sweeping = false;
      });
  }, opts.recoverySweepMs ?? RECOVERY_SWEEP_MS);
  timer.unref?.();
  log.info({ workerId: id, queue: queue.kind, concurrency: opts.concurrency }, "run worker started");
  return {
    id,
    queue,
    recover,
    async stop() {
      clearInterval(timer);
      await queue.stop();
    },
  };
}

/**
 * One recovery pass: re-queues the jobs of lapsed leases (their worker died), finishes a run
 * whose end was committed (its worker died before releasing the lease: its final event goes
 * to this process's after-run subscribers, then the lease is released), ends a job whose
 * cancel was asked for (lib/runs/cancel-run.ts), gives up on a job
 * claimed MAX_ATTEMPTS times, and dispatches again queued jobs nobody claimed for
 * STALE_QUEUED_MS (a dispatch lost with its process).
 * @returns how many jobs were queued again.
 */
export async function recoverRuns(db: Db, queue: RunQueue, now: number, holder: string = newWorkerId("recovery")): Promise<number> {
  const store = prismaRunStore(db);
  let requeued = 0;
  for (const lapsed of await store.lapsedLeases(now)) {
    const job = await store.job({ runId: lapsed.runId });
    if (!job) {
      await store.release(lapsed.threadId, lapsed.runId);
      continue;
    }
    if (job.status === "done") {
      await finishEndedRun(db, lapsed.threadId, lapsed.runId, holder, now);
      continue;
    }
    // Its cancel was asked for and its worker died before acting on it: end it, do not run it again.
    if (job.status === CANCEL_REQUESTED) {
      await endAbandonedCancel(db, lapsed.threadId, lapsed.runId, now);
      continue;
    }
    if (job.attempts >= MAX_ATTEMPTS) {
      await giveUp(store, lapsed.threadId, lapsed.runId, job.id, now);
      continue;
    }
    if (await store.requeue(job.id, lapsed.holder)) {
      log.warn({ threadId: lapsed.threadId, runId: lapsed.runId, deadWorker: lapsed.holder, attempts: job.attempts }, "recovering a run whose worker stopped");
      await queue.dispatch(job.id);
      requeued += 1;
    }
  }
  for (const jobId of await store.staleQueued(now - STALE_QUEUED_MS, 50)) {
    await store.touchQueued(jobId);
    await queue.dispatch(jobId);
  }
  return requeued;
}

/** Ends a run recovery could not finish: the person sees an interrupted run they may continue. */
async function giveUp(store: RunStore, threadId: string, runId: string, jobId: string, now: number): Promise<void> {
  log.error({ threadId, runId }, `a run's worker stopped ${MAX_ATTEMPTS} times: leaving it to a person`);
  // The thread stays `running` with no lease: that is what Continue resumes, and what people
  // read as Interrupted (lib/run-status.ts threadStatusShown).
  await store.giveUp({ threadId, runId, jobId, endedAt: now, error: `The run's worker stopped ${MAX_ATTEMPTS} times; continue it when the cause is fixed.` });
}
