import "server-only";
import type { Db } from "../db/client";
import { startPruneSweeper } from "../db/prune-sweeper";
import { startExpirySweeper } from "./expiry-sweeper";
import { env } from "../env";
import { logger } from "../log";
import { installMemoryHooks } from "../memory/after-run-hooks";
import { startMemorySweeper } from "../memory/sweeper";
import { installWebhookRecorder } from "../webhooks/record";
import { ensureWebhookSender } from "../webhooks/sender";
import { ensureProcessWorker } from "./process-worker";
import type { Worker } from "./worker";
import { startWorkerChild } from "./worker-child";

const log = logger.child({ module: "background" });

/** Options of {@link startBackgroundWork}. */
export interface BackgroundOptions {
  /** This process is a worker (`npm run worker`, a worker child): it executes runs whatever `RUN_IN` says. */
  worker?: boolean;
}

/**
 * Starts the background work of a process that executes runs (docs/architecture.md#runs-jobs-and-leases):
 * the run worker (RUN_WORKERS slots; recovery of runs whose worker died), the memory hooks
 * that follow a run in the process that ran it (summarize, promote), and the sweepers: expired
 * approvals (their runs are told), expired short-term memory, checkpoint pruning, and the
 * webhook sender (docs/webhooks.md). A web instance with RUN_WORKERS=0 starts none of it: its
 * workers do. Every process records the webhook events that happen in it (an approval
 * decided on a web instance too); the processes with background work send them. A web
 * process with `RUN_IN=process` forks a worker child that does all of it (lib/runs/worker-child.ts)
 * and keeps none for itself.
 * @returns the worker, or null when this process executes no runs (RUN_WORKERS is 0, or its worker child does).
 */
export async function startBackgroundWork(db: Db, opts: BackgroundOptions = {}): Promise<Worker | null> {
  installWebhookRecorder(db);
  const settings = env();
  if (settings.RUN_WORKERS === 0) return null;
  if (settings.RUN_IN === "process" && !opts.worker) {
    startWorkerChild();
    return null;
  }
  ensureWebhookSender(db);
  startExpirySweeper(db);
  startMemorySweeper(db);
  startPruneSweeper(db);
  installMemoryHooks(db, (err, threadId) => log.error({ err, threadId }, "memory: summarize or promote after a run failed"));
  return ensureProcessWorker(db);
}
