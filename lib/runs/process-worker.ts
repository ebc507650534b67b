import "server-only";
import type { Db } from "../db/client";
import { env } from "../env";
import type { RunQueue } from "./queue";
import { queueFor, startWorker, type Worker } from "./worker";

const g = globalThis as { __phylacteryWorker?: Promise<Worker | null>; __phylacteryDispatch?: RunQueue };

/**
 * Starts this process's run worker once (RUN_WORKERS slots; none when it is 0): the web
 * process on the embedded default, or `npm run worker`. Kept on globalThis so that every
 * route module copy of the process shares it.
 * @returns the worker, or null when this process executes no runs.
 */
export function ensureProcessWorker(db: Db): Promise<Worker | null> {
  g.__phylacteryWorker ??= (async () => {
    const settings = env();
    if (settings.RUN_WORKERS === 0) return null;
    return startWorker({ db, databaseUrl: settings.DATABASE_URL, concurrency: settings.RUN_WORKERS, leaseTtlMs: settings.RUN_LEASE_TTL_MS });
  })();
  return g.__phylacteryWorker;
}

/**
 * Tells the workers that an accepted run's job is ready: through this process's worker's
 * queue when it has one, else through a dispatch-only queue of the same kind. A lost
 * dispatch is not lost work: the recovery sweep dispatches stale queued jobs again.
 */
export async function dispatchRun(db: Db, jobId: string): Promise<void> {
  const worker = await g.__phylacteryWorker;
  if (worker) return worker.queue.dispatch(jobId);
  g.__phylacteryDispatch ??= queueFor(db, env().DATABASE_URL);
  return g.__phylacteryDispatch.dispatch(jobId);
}
