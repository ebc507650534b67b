import "server-only";
import { ERROR, INTERRUPT } from "@langchain/langgraph-checkpoint";
import { FINISHED_STATUSES } from "../run-status";
import type { Db } from "./client";

/**
 * Pruning a finished thread's checkpoints down to its history of states (docs/storage.md
 * "What pruning keeps").
 *
 * The rule. Every `Checkpoint` row is kept, and with it every `CheckpointBlob` version (a blob
 * is the value of a channel at the checkpoint that wrote it, so each one is the state of some
 * kept checkpoint): time travel lists every checkpoint with the nodes that wrote it and the
 * nodes that run next, shows the state at any of them and forks from any of them, and all of
 * that is read from the checkpoint and its blobs. What goes are the pending writes
 * (`CheckpointWrite`) of every checkpoint but the latest of each namespace: they are the
 * outputs of the tasks that ran from that checkpoint, already folded into its child
 * checkpoint, and LangGraph needs them only to resume from that very checkpoint (to skip the
 * tasks that had finished), which only ever happens at the latest one. Three kinds stay
 * because LangGraph's state history reads them for a past checkpoint: interrupts (the
 * question or approval the run waited on there, shown as "Waiting for…"), task errors, and
 * writes of the null task (`Command({ update })`, applied to that checkpoint's values).
 *
 * Only a thread whose status is finished (`FINISHED_STATUSES`: completed, incomplete, failed,
 * cancelled) and none of whose runs is still open is pruned; a running, queued, idle or
 * waiting (approval or input) thread is left whole. Safe while runs go on: runs only ever add
 * checkpoints newer than the latest, and write to the latest or newer ones, and pruning only
 * deletes writes of checkpoints strictly older than the latest it saw. Idempotent: a second
 * call finds nothing to delete. AuditEntry and RunEvent rows are never touched.
 */

/** LangGraph's id of the null task (writes of `Command({ update })`), not exported by the checkpoint package. */
export const NULL_TASK_ID = "00000000-0000-0000-0000-000000000000";

/** Channels of pending writes kept on past checkpoints: what the state history reads from them. */
export const KEPT_WRITE_CHANNELS: readonly string[] = [INTERRUPT, ERROR];

/** Why a thread was left as it was. */
export type PruneSkip = "thread_not_found" | "not_finished" | "run_open";

/** What {@link pruneThread} did. */
export type PruneResult =
  | { pruned: true /** CheckpointWrite rows deleted (0 when already pruned). */; writesDeleted: number }
  | { pruned: false; skipped: PruneSkip /** The thread's status, when found. */; status?: string };

/**
 * The `where` of the pending writes pruning deletes in one namespace of a thread: those of
 * checkpoints older than `latestId`, but not interrupts, errors or null-task writes.
 * Also used by the sweeper to find threads with something left to prune.
 */
export function prunableWrites(threadId: string | undefined, checkpointNs?: string, latestId?: string) {
  return {
    ...(threadId !== undefined ? { threadId } : {}),
    ...(checkpointNs !== undefined ? { checkpointNs } : {}),
    ...(latestId !== undefined ? { checkpointId: { lt: latestId } } : {}),
    channel: { notIn: [...KEPT_WRITE_CHANNELS] },
    taskId: { not: NULL_TASK_ID },
  };
}

/**
 * Prunes one finished thread's checkpoints to its history of states (see the module comment
 * for the rule and why it is safe). Prisma queries only, so the same on SQLite and
 * PostgreSQL.
 * @returns `{ pruned: true, writesDeleted }`, or `{ pruned: false, skipped }` naming why the
 *   thread was left whole: "thread_not_found", "not_finished" (its status is not a finished
 *   one: running, queued, idle, awaiting approval or input), "run_open" (a run of it has not
 *   ended, whatever the thread's status says).
 * @throws the database's errors (nothing is half-deleted: each namespace is one DELETE).
 */
export async function pruneThread(db: Db, threadId: string): Promise<PruneResult> {
  const thread = await db.thread.findUnique({ where: { id: threadId }, select: { status: true } });
  if (!thread) return { pruned: false, skipped: "thread_not_found" };
  if (!FINISHED_STATUSES.includes(thread.status)) return { pruned: false, skipped: "not_finished", status: thread.status };
  // A run that stopped to wait has ended (the next run resumes); one that has not ended is
  // queued, running, or was cut off by a crash and will be continued from the latest checkpoint.
  const open = await db.run.findFirst({ where: { threadId, endedAt: null }, select: { id: true } });
  if (open) return { pruned: false, skipped: "run_open", status: thread.status };

  const namespaces = await db.checkpoint.groupBy({ by: ["checkpointNs"], where: { threadId }, orderBy: { checkpointNs: "asc" } });
  let writesDeleted = 0;
  for (const { checkpointNs } of namespaces) {
    // The latest is what a new run or a resume starts from: its writes stay whole.
    const latest = await db.checkpoint.findFirst({
      where: { threadId, checkpointNs },
      orderBy: { checkpointId: "desc" },
      select: { checkpointId: true },
    });
    if (!latest) continue;
    const { count } = await db.checkpointWrite.deleteMany({ where: prunableWrites(threadId, checkpointNs, latest.checkpointId) });
    writesDeleted += count;
  }
  return { pruned: true, writesDeleted };
}
