/**
 * The crash points of a run (docs/durability.md "Events after a crash"): the named places of
 * executeJob between the graph's checkpoints and the run's events, where a worker killed
 * there leaves work recorded but its events not (yet) stored. A test seam: a hook passed to
 * executeJob is called at each point, and a hook that throws {@link WorkerKilled} stops the
 * run there as a SIGKILL would, writing nothing more and keeping the lease, so the test can
 * run recovery and check what it finds.
 *
 * - `event:<k>`: before the run's k-th stream part (from 1, in this attempt) is stored;
 * - `before_end`: the graph ended (its last checkpoint is stored), nothing of the end is;
 * - `after_end_transaction`: the run's, thread's and job's status and the final part are
 *   committed, the after-run subscribers (memory hooks, webhooks) have not seen it;
 * - `after_final_published`: they have, and the lease is not released.
 */
export type CrashPoint = `event:${number}` | "before_end" | "after_end_transaction" | "after_final_published";

/** Every fixed point of the run's end, in order. */
export const END_CRASH_POINTS = ["before_end", "after_end_transaction", "after_final_published"] as const satisfies readonly CrashPoint[];

/** A hook called at each crash point; production passes none. */
export type CrashHook = (point: CrashPoint) => void;

/** Thrown by a {@link CrashHook}: the run stops where it is, as if its process were killed. */
export class WorkerKilled extends Error {
  constructor(readonly point: CrashPoint) {
    super(`worker killed at ${point}`);
    this.name = "WorkerKilled";
  }
}
