import type { Db } from "../db/client";
import { AppError } from "../errors";

/** What a follower of a thread follows: a run, from the cursor just before its first event. */
export interface FollowTarget {
  runId: string;
  /** The seq to follow after (lib/events/follow-thread.ts `after`). */
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
  const run = runId
    ? await db.run.findFirst({ where: { id: runId, threadId }, select: { id: true } })
    : await db.run.findFirst({ where: { threadId, status: { in: ["queued", "running"] } }, orderBy: { startedAt: "desc" }, select: { id: true } });
  if (!run) {
    if (runId) throw new AppError("not_found", "run_not_found", `runId: the thread has no run ${runId}; leave runId out to follow its active run.`);
    return null;
  }
  const last = await db.runEvent.findFirst({ where: { threadId }, orderBy: { seq: "desc" }, select: { seq: true } });
  const first = await db.runEvent.findFirst({ where: { threadId, runId: run.id }, orderBy: { seq: "asc" }, select: { seq: true } });
  return { runId: run.id, after: first ? first.seq - 1 : (last?.seq ?? 0) };
}
