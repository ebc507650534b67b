import "server-only";
import type { Db } from "../db/client";
import { claimLease, releaseLease } from "../db/lease";
import { newTraceId, publish, type TraceIds } from "../events/bus";
import { busEventOf, type StoredRunEvent } from "../events/run-events";
import { notifyThreadEvent } from "../events/thread-events";
import { logger } from "../log";
import type { RunStore } from "./store";
import { prismaRunStore } from "./store-prisma";
import type { GraphStateValue } from "../engine/state";
import type { RunChunk } from "../events/ui-parts";

/**
 * What a recovered run needs of the record its dead worker left (docs/durability.md "Events
 * after a crash"): where its lifecycle stopped being told, and the end of a run whose end was
 * committed but whose after-run work never ran.
 */

const log = logger.child({ module: "run" });

/** The `to` of the thread's last stored lifecycle transition, or null. */
export async function lastToldLifecycle(store: RunStore, threadId: string): Promise<GraphStateValue["lifecycle"] | null> {
  const [row] = await store.events({ threadId, types: ["lifecycle_transition"], newestFirst: true, take: 1 });
  if (!row) return null;
  return ((JSON.parse(row.data) as { data?: { to?: string } }).data?.to as GraphStateValue["lifecycle"] | undefined) ?? null;
}

/** Names of the events that end a run (its final run part). */
export const FINAL_EVENTS = ["run_completed", "run_failed", "run_suspended"] as const;

/**
 * Finishes a run whose worker died after the run's end was committed but before its lease was
 * released (docs/durability.md "Events after a crash"): claims the lapsed lease, publishes the
 * stored final event again on this process's bus (the after-run subscribers: memory hooks,
 * webhooks, both idempotent), wakes the thread's followers, and releases the lease. A run
 * with no stored final event is only released.
 * @param now ms since the epoch.
 * @returns false when another recoverer claimed the lease first (it finishes the run).
 */
export async function finishEndedRun(db: Db, threadId: string, runId: string, holder: string, now: number): Promise<boolean> {
  if (!(await claimLease(db, threadId, runId, holder, now))) return false;
  try {
    const [row] = await prismaRunStore(db).events({ runId, types: FINAL_EVENTS, newestFirst: true, take: 1 });
    if (row) {
      const stored = JSON.parse(row.data) as Extract<RunChunk, { type: "data-run" }>;
      const ids: TraceIds = { traceId: stored.data.traceId ?? newTraceId(), threadId, runId };
      const name = row.type as StoredRunEvent["name"];
      await publish(busEventOf(name, stored, ids, now)).catch((err: unknown) => log.warn({ err, threadId, runId }, "an after-run subscriber failed"));
      void notifyThreadEvent(threadId, row.seq, runId).catch((err: unknown) => log.warn({ err, threadId }, "event notification failed"));
    }
  } finally {
    await releaseLease(db, threadId, runId);
  }
  return true;
}
