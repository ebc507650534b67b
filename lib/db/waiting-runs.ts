import "server-only";
import type { Db } from "./client";

/** Run statuses that wait on a person: a later run of the thread carries their work on. */
export const WAITING_RUN_STATUSES: readonly string[] = ["awaiting_approval", "awaiting_input"];

/**
 * Gives the thread's earlier runs that stopped to wait on a person the status of the run that
 * carried their work on and has now ended, however it ended: by its worker, by a cancel before
 * any worker took it, or by recovery giving up on it (docs/runs.md "Runs that waited"). Nothing
 * changes when `status` is itself a waiting status: the waiting goes on.
 * @param tx the transaction that ends the run `runId`, so both change together.
 * @param status the ended run's status (lib/run-status.ts, or `interrupted`).
 * @returns how many earlier runs were updated.
 */
export async function endWaitingRuns(tx: Pick<Db, "run">, threadId: string, runId: string, status: string): Promise<number> {
  if (WAITING_RUN_STATUSES.includes(status)) return 0;
  const res = await tx.run.updateMany({ where: { threadId, id: { not: runId }, status: { in: [...WAITING_RUN_STATUSES] } }, data: { status } });
  return res.count;
}
