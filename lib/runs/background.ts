import "server-only";
import type { Db } from "../db/client";
import { startPruneSweeper } from "../db/prune-sweeper";
import { startExpirySweeper } from "../engine/expiry-sweeper";
import { env } from "../env";
import { logger } from "../log";
import { installMemoryHooks } from "../memory/after-run-hooks";
import { startMemorySweeper } from "../memory/sweeper";
import { ensureProcessWorker } from "./process-worker";
import type { Worker } from "./worker";

const log = logger.child({ module: "background" });

/**
 * Starts the background work of a process that executes runs (docs/architecture.md#runs-jobs-and-leases):
 * the run worker (RUN_WORKERS slots; recovery of runs whose worker died), the memory hooks
 * that follow a run in the process that ran it (summarize, promote), and the sweepers: expired
 * approvals (their runs are told), expired short-term memory, checkpoint pruning. A web
 * instance with RUN_WORKERS=0 starts none of it: its workers do.
 * @returns the worker, or null when RUN_WORKERS is 0.
 */
export async function startBackgroundWork(db: Db): Promise<Worker | null> {
  if (env().RUN_WORKERS === 0) return null;
  startExpirySweeper(db);
  startMemorySweeper(db);
  startPruneSweeper(db);
  installMemoryHooks(db, (err, threadId) => log.error({ err, threadId }, "memory: summarize or promote after a run failed"));
  return ensureProcessWorker(db);
}
