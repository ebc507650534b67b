import "server-only";
import type { Role } from "../auth/roles";
import { tellExpiredRuns } from "./expiry-sweeper";
import { type AcceptedRun, enqueueRun, type PrepareRunOptions } from "./run-thread";
import { isAppError } from "../errors";
import { logger } from "../log";
import { dispatchRun } from "./process-worker";

const log = logger.child({ module: "runs" });

/** Options of {@link acceptRun}. */
export interface AcceptRunOptions extends PrepareRunOptions {
  /** LangGraph API run metadata (docs/api.md#runs): stored on the run's row before it is dispatched. */
  metadata?: Record<string, unknown>;
  /**
   * Runs work that must outlive the response (a route passes next/server's `after`); by
   * default it starts at once and its failure is logged.
   */
  defer?: (work: () => Promise<unknown>) => void;
}

/** An accepted and dispatched run: what the caller follows, and who asked, resolved once. */
export interface AcceptedDispatchedRun extends AcceptedRun {
  /** The requester's role in the thread's workspace (what a follower's view may show). */
  role: Role | null;
  /** Where a follower of the run starts: after this seq of the thread, on this run. */
  follow: { runId: string; after: number };
}

/**
 * The one accept path of the run service (docs/architecture.md#runs-jobs-and-leases), used by
 * `POST /api/threads/:id/stream` and the LangGraph API's runs: checks, reads the state,
 * applies the decision and commits the run and its job (lib/runs/run-thread.ts enqueueRun),
 * stores the run's metadata, then dispatches the job to the workers. Nobody outside lib/runs
 * dispatches. A decision that arrived after its challenge expired is refused (410) and the
 * run that waited on it is told (tellExpiredRuns), here and only here among the accept paths.
 * @returns the run, its job, the requester's role and the follow cursor.
 * @throws AppError as enqueueRun (403, 404, 409, 410, 422, 429).
 */
export async function acceptRun(opts: AcceptRunOptions): Promise<AcceptedDispatchedRun> {
  const { db } = opts;
  const defer = opts.defer ?? ((work) => void work().catch((err: unknown) => log.warn({ err }, "telling an expired run failed")));
  const accepted = await enqueueRun(opts).catch((err: unknown) => {
    // A decision on an expired challenge: answer 410 now, and tell the run right after.
    if (isAppError(err) && err.reason === "approval_expired") defer(() => tellExpiredRuns(db));
    throw err;
  });
  if (opts.metadata && Object.keys(opts.metadata).length > 0) await db.run.update({ where: { id: accepted.runId }, data: { metadata: JSON.stringify(opts.metadata) } });
  await dispatchRun(db, accepted.jobId);
  return { ...accepted, follow: { runId: accepted.runId, after: accepted.afterSeq } };
}
