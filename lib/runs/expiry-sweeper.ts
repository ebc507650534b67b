import "server-only";
import { expireChallenge } from "../approvals/service";
import type { Db } from "../db/client";
import { env } from "../env";
import { isAppError } from "../errors";
import { logger } from "../log";
import { type PrepareRunOptions, prepareRun } from "./run-thread";

/**
 * Expiry of approval challenges: a pending challenge past its expiry is marked
 * expired (one conditional update, so a decision racing it either wins before or gets
 * 410), and its run is told: the thread resumes with an `expired` decision, the tool does
 * not run, and the Supervisor decides (ask again with a new challenge while the step has
 * tries left, else the step fails and the plan escalates as for any failure).
 */

/** Options of {@link tellExpiredRuns}. */
export interface SweepOptions {
  /** Clock, ms since the epoch. */
  now?: () => number;
  /** Engine overrides for the resumed runs (tests). */
  deps?: PrepareRunOptions["deps"];
  /** At most this many challenges per sweep (default 20). */
  limit?: number;
}

/**
 * Marks due challenges expired and tells their runs, each run streamed to the end and
 * stored as run events like any other (a reloaded run view shows it).
 * @returns how many runs were told.
 */
export async function tellExpiredRuns(db: Db, opts: SweepOptions = {}): Promise<number> {
  const now = opts.now ?? Date.now;
  const due = await db.approval.findMany({
    where: {
      OR: [
        { status: "pending", expiresAt: { lte: new Date(now()) } },
        { status: "expired", runNotifiedAt: null },
      ],
    },
    orderBy: { expiresAt: "asc" },
    take: opts.limit ?? 20,
    select: { id: true, threadId: true, status: true },
  });
  let told = 0;
  for (const a of due) {
    if (a.status === "pending") await expireChallenge({ db, now }, a.id);
    try {
      const run = await prepareRun({ db, threadId: a.threadId, userId: "system", input: { kind: "expired", approvalId: a.id }, ...(opts.deps ? { deps: opts.deps } : {}) });
      for await (const _ of run.stream()) {
        // drain: every chunk is stored as a run event
      }
      told += 1;
    } catch (err) {
      if (isAppError(err) && err.reason === "run_in_progress") continue; // the next sweep tries again
      // Nothing waits on it any more (or it was decided first): nothing to tell.
      if (isAppError(err)) await db.approval.updateMany({ where: { id: a.id, runNotifiedAt: null }, data: { runNotifiedAt: new Date(now()) } });
      else log.error({ err, approvalId: a.id }, "expiry sweeper: telling the run failed");
    }
  }
  return told;
}

const log = logger.child({ module: "expiry-sweeper" });

const g = globalThis as { __phylacterySweeper?: ReturnType<typeof setInterval> };

/**
 * Starts the in-process sweeper once per server process (every `APPROVAL_SWEEP_MS`, 5 s by
 * default); later calls do nothing. Sweeps never overlap.
 */
export function startExpirySweeper(db: Db): void {
  if (g.__phylacterySweeper) return;
  let busy = false;
  g.__phylacterySweeper = setInterval(() => {
    if (busy) return;
    busy = true;
    tellExpiredRuns(db)
      .catch((err: unknown) => log.error({ err }, "expiry sweeper failed"))
      .finally(() => {
        busy = false;
      });
  }, env().APPROVAL_SWEEP_MS);
  g.__phylacterySweeper.unref?.();
}
