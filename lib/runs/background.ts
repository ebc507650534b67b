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

const log = logger.child({ module: "background" });

/**
 * Starts the background work of a process that executes runs (docs/architecture.md#runs-jobs-and-leases):
 * the run worker (RUN_WORKERS slots; recovery of runs whose worker died), the memory hooks
 * that follow a run in the process that ran it (summarize, promote), and the sweepers: expired
 * approvals (their runs are told), expired short-term memory, checkpoint pruning, and the
 * webhook sender (docs/webhooks.md). A web instance with RUN_WORKERS=0 starts none of it: its
 * workers do. Every process records the webhook events that happen in it (an approval
 * decided on a web instance too); the processes with background work send them.
 * @returns the worker, or null when RUN_WORKERS is 0.
 */
export async function startBackgroundWork(db: Db): Promise<Worker | null> {
  installWebhookRecorder(db);
  if (env().RUN_WORKERS === 0) return null;
  ensureWebhookSender(db);
  startExpirySweeper(db);
  startMemorySweeper(db);
  startPruneSweeper(db);
  installMemoryHooks(db, (err, threadId) => log.error({ err, threadId }, "memory: summarize or promote after a run failed"));
  return ensureProcessWorker(db);
}
