import "server-only";
import { env } from "../env";
import { logger } from "../log";
import { FINISHED_STATUSES } from "../run-status";
import type { Db } from "./client";
import { prunableWrites, pruneThread } from "./prune-checkpoints";
import { retentionMs as hoursToMs } from "./prune-retention";

/**
 * The checkpoint pruning sweeper (docs/storage.md "Retention"): every `intervalMs` it prunes
 * (lib/db/prune-checkpoints.ts) up to `batchSize` threads whose last run ended more than
 * `retentionMs` ago.
 *
 * Which threads were pruned needs no column: the rows are the record. A thread still to prune
 * is one that has pending writes of a kind pruning deletes (not interrupts, errors or null-task
 * writes); a pruned one has none left, except on its latest checkpoint (a run that failed in
 * the middle of a step keeps its finished tasks' writes there). Each pass takes the next
 * `batchSize` such threads after a cursor (by thread id, wrapping to the start after the
 * last), so threads that stay (waiting, running, recent, or with writes only on their latest
 * checkpoint) never starve the others, and no thread is looked at twice before every other
 * one has been.
 */

const log = logger.child({ module: "prune-sweeper" });

/** Options of {@link sweepPrunableThreads}. */
export interface PruneSweepOptions {
  /** Threads whose last run ended more than this many ms ago are pruned (0: any finished one). */
  retentionMs: number;
  /** Clock, ms since the epoch (default Date.now). */
  now?: () => number;
  /** Threads looked at per pass (default 50). */
  batchSize?: number;
}

/** Where the next pass starts (a thread id; "" = the start). The sweeper keeps one per process. */
export interface PruneCursor {
  after: string;
}

/** What one pass did. */
export interface PruneSweepResult {
  /** Threads with something to prune that the pass looked at. */
  looked: number;
  /** Threads pruned (past retention and finished). */
  pruned: number;
  /** CheckpointWrite rows deleted. */
  writesDeleted: number;
}

/**
 * One pass of the sweeper: the next `batchSize` threads (after `cursor.after`) with writes of
 * a kind pruning deletes; of those, the ones whose status is finished, whose runs all ended at
 * or before now - retentionMs and which were last updated by then are pruned. Moves the cursor.
 * @throws the database's errors (the cursor then stays, so the next pass tries the same batch).
 */
export async function sweepPrunableThreads(db: Db, opts: PruneSweepOptions, cursor: PruneCursor = { after: "" }): Promise<PruneSweepResult> {
  const batchSize = Math.max(1, opts.batchSize ?? 50);
  const cutoff = new Date((opts.now ?? Date.now)() - Math.max(0, opts.retentionMs));
  const groups = await db.checkpointWrite.groupBy({
    by: ["threadId"],
    where: { ...prunableWrites(undefined), threadId: { gt: cursor.after } },
    orderBy: { threadId: "asc" },
    take: batchSize,
  });
  const ids = groups.map((g) => g.threadId);
  const due = ids.length
    ? await db.thread.findMany({
        where: {
          id: { in: ids },
          status: { in: [...FINISHED_STATUSES] },
          updatedAt: { lte: cutoff },
          runs: { every: { endedAt: { lte: cutoff } } },
        },
        select: { id: true },
        orderBy: { id: "asc" },
      })
    : [];
  const result: PruneSweepResult = { looked: ids.length, pruned: 0, writesDeleted: 0 };
  for (const { id } of due) {
    const r = await pruneThread(db, id);
    if (!r.pruned) continue;
    result.pruned += 1;
    result.writesDeleted += r.writesDeleted;
  }
  cursor.after = ids.length < batchSize ? "" : (ids.at(-1) ?? "");
  return result;
}

/** Options of {@link startPruneSweeper}; each defaults to its setting. */
export interface StartPruneSweeperOptions {
  /** Between passes, ms (default CHECKPOINT_PRUNE_SWEEP_MS, 10 minutes). */
  intervalMs?: number;
  /** Retention in ms, or null for off (default CHECKPOINT_RETENTION_HOURS, 24 hours). */
  retentionMs?: number | null;
  /** Clock, ms since the epoch. */
  now?: () => number;
  /** Threads looked at per pass (default 50). */
  batchSize?: number;
}

/**
 * Starts the pruning sweeper in this process: a pass every `intervalMs` (none at start), never
 * two at once; the timer is unref'd, so it never keeps a process alive. Run it in one process
 * or several: passes are idempotent and a thread pruned twice at once loses nothing more.
 * With retention off (null) nothing starts.
 * @returns the function that stops it (a pass under way finishes).
 */
export function startPruneSweeper(db: Db, opts: StartPruneSweeperOptions = {}): () => void {
  const retention = opts.retentionMs !== undefined ? opts.retentionMs : hoursToMs(env().CHECKPOINT_RETENTION_HOURS);
  if (retention === null) return () => {};
  const intervalMs = opts.intervalMs ?? env().CHECKPOINT_PRUNE_SWEEP_MS;
  const cursor: PruneCursor = { after: "" };
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    sweepPrunableThreads(db, { retentionMs: retention, ...(opts.now ? { now: opts.now } : {}), ...(opts.batchSize ? { batchSize: opts.batchSize } : {}) }, cursor)
      .then((r) => {
        if (r.pruned > 0) log.info(r, "pruned the checkpoints of finished threads");
      })
      .catch((err: unknown) => log.error({ err }, "checkpoint pruning sweeper failed"))
      .finally(() => {
        busy = false;
      });
  }, intervalMs);
  timer.unref?.();
  return () => clearInterval(timer);
}
