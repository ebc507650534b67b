import type { Db } from "../db/client";
import { AppError } from "../errors";
import { prismaRunStore } from "./store-prisma";

/** What a follower of a thread follows: a run, from the cursor just before its first event. */
export interface FollowTarget {
  runId: string;
  /** The seq to follow after (lib/runs/follow-thread.ts `after`). */
  after: number;
}

/**
 * The run a follower of the thread follows, and where its events start
 * (docs/architecture.md#live-streams): the named run, or else the thread's active run
 * (its latest Run row still `queued` or `running`); null when no run is active. The cursor is just
 * before the run's first stored event, or, when it has stored none yet, the thread's last
 * event (read first, so an event stored meanwhile is not skipped).
 * @throws AppError not_found ("run_not_found") when `runId` is not a run of the thread.
 */
export async function followTarget(db: Db, threadId: string, runId?: string): Promise<FollowTarget | null> {
  const store = prismaRunStore(db);
  const run = runId ? await db.run.findFirst({ where: { id: runId, threadId }, select: { id: true } }) : await store.activeRun(threadId).then((id) => id && { id });
  if (!run) {
    if (runId) throw new AppError("not_found", "run_not_found", `runId: the thread has no run ${runId}; leave runId out to follow its active run.`);
    return null;
  }
  const last = await store.lastSeq(threadId);
  const first = await store.firstSeqOf(run.id);
  return { runId: run.id, after: first !== null ? first - 1 : last };
}
