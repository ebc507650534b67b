import "server-only";
import type { Db } from "../db/client";
import type { Fanout, Unlisten } from "../events/fanout";
import { fanout as processFanout } from "../events/fanout-of";
import type { RunQueue } from "./queue";

/** How often workers look for queued jobs written by another process, ms. */
export const TABLE_POLL_MS = 500;

/** The fan-out channel on which a dispatch wakes the consumers (payload: the job's id). */
export const TABLE_WAKE_CHANNEL = "phylactery_run_jobs";

/**
 * The embedded default's queue: the RunJob table itself, where pg-boss cannot run. A
 * dispatch wakes the consumers at once through the process's fan-out (lib/events/fanout-of.ts):
 * this process's, and the worker child's of a web process with `RUN_IN=process` (over IPC).
 * Jobs another process accepted on the same database are also found by polling every
 * {@link TABLE_POLL_MS}. Oldest queued job first.
 * @param wakeVia the fan-out of the wake-ups (default: the process's).
 */
export function tableQueue(db: Db, pollMs = TABLE_POLL_MS, wakeVia: () => Fanout = processFanout): RunQueue {
  let running = false;
  const inFlight = new Map<string, Promise<void>>();
  /** Who asked for each job in flight: one requester never holds every slot. */
  const owners = new Map<string, string>();
  /** Jobs handled in the last poll interval: one still queued after its handler (its run's
   * lease is held elsewhere) waits for the next poll instead of spinning. */
  const recent = new Map<string, number>();
  let loop: Promise<void> | null = null;
  let poke: (() => void) | null = null;
  let unlisten: Unlisten | null = null;
  return {
    kind: "table",
    async dispatch(jobId) {
      await wakeVia().notify(TABLE_WAKE_CHANNEL, { j: jobId });
    },
    async consume(handler, concurrency) {
      if (running) return;
      running = true;
      unlisten = wakeVia().listen(TABLE_WAKE_CHANNEL, () => poke?.());
      loop = (async () => {
        while (running) {
          const free = concurrency - inFlight.size;
          if (free > 0) {
            const now = Date.now();
            for (const [id, at] of recent) if (now - at >= pollMs) recent.delete(id);
            const skip = [...inFlight.keys(), ...recent.keys()];
            const candidates = await db.runJob
              .findMany({ where: { status: "queued", id: { notIn: skip } }, orderBy: { createdAt: "asc" }, take: Math.max(50, free * 4), select: { id: true, requestedBy: true } })
              .catch(() => []);
            const jobs = fairPick(candidates, [...owners.values()], free, concurrency);
            for (const { id, requestedBy } of jobs) {
              owners.set(id, requestedBy);
              const p = handler(id).finally(() => {
                inFlight.delete(id);
                owners.delete(id);
                recent.set(id, Date.now());
                poke?.();
              });
              inFlight.set(id, p);
            }
            if (jobs.length === free) continue;
          }
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, pollMs);
            poke = () => {
              clearTimeout(t);
              resolve();
            };
          });
          poke = null;
        }
      })();
    },
    async stop() {
      running = false;
      unlisten?.();
      unlisten = null;
      poke?.();
      await loop;
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}

/**
 * Fair share of a process's run slots: the oldest queued jobs first, but one requester holds
 * at most `concurrency - 1` slots (all of them when there is only one), so a tenant who queues
 * many long runs cannot keep everyone else's waiting.
 * @param running the requesters of the jobs in flight.
 * @returns at most `free` jobs, oldest first.
 */
export function fairPick<J extends { requestedBy: string }>(candidates: J[], running: string[], free: number, concurrency: number): J[] {
  const cap = Math.max(1, concurrency - 1);
  const held = new Map<string, number>();
  for (const who of running) held.set(who, (held.get(who) ?? 0) + 1);
  const picked: J[] = [];
  for (const job of candidates) {
    if (picked.length >= free) break;
    const n = held.get(job.requestedBy) ?? 0;
    if (n >= cap) continue;
    held.set(job.requestedBy, n + 1);
    picked.push(job);
  }
  return picked;
}
