import "server-only";
import { EventEmitter } from "node:events";
import type { Db } from "../db/client";
import type { RunQueue } from "./queue";

/** How often workers look for queued jobs written by another process, ms. */
export const TABLE_POLL_MS = 500;

const g = globalThis as { __phylacteryRunWake?: EventEmitter };
g.__phylacteryRunWake ??= new EventEmitter();
/** Wakes this process's consumers (kept on globalThis: route module copies share it). */
const wake = g.__phylacteryRunWake;
wake.setMaxListeners(0);

/**
 * The embedded default's queue: the RunJob table itself, where pg-boss cannot run. A
 * dispatch wakes this process's consumers at once; jobs another process accepted on the same
 * database are found by polling every {@link TABLE_POLL_MS}. Oldest queued job first.
 */
export function tableQueue(db: Db, pollMs = TABLE_POLL_MS): RunQueue {
  let running = false;
  const inFlight = new Map<string, Promise<void>>();
  /** Jobs handled in the last poll interval: one still queued after its handler (its run's
   * lease is held elsewhere) waits for the next poll instead of spinning. */
  const recent = new Map<string, number>();
  let loop: Promise<void> | null = null;
  let poke: (() => void) | null = null;
  const onWake = () => poke?.();
  return {
    kind: "table",
    async dispatch() {
      wake.emit("job");
    },
    async consume(handler, concurrency) {
      if (running) return;
      running = true;
      wake.on("job", onWake);
      loop = (async () => {
        while (running) {
          const free = concurrency - inFlight.size;
          if (free > 0) {
            const now = Date.now();
            for (const [id, at] of recent) if (now - at >= pollMs) recent.delete(id);
            const skip = [...inFlight.keys(), ...recent.keys()];
            const jobs = await db.runJob
              .findMany({ where: { status: "queued", id: { notIn: skip } }, orderBy: { createdAt: "asc" }, take: free, select: { id: true } })
              .catch(() => []);
            for (const { id } of jobs) {
              const p = handler(id).finally(() => {
                inFlight.delete(id);
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
      wake.off("job", onWake);
      poke?.();
      await loop;
      await Promise.allSettled([...inFlight.values()]);
    },
  };
}
