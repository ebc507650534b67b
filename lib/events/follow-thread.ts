import type { Db } from "../db/client";
import { leaseRunOf } from "../db/lease";
import type { RunChunk } from "../engine/ui-parts";
import type { Fanout } from "./fanout";
import { chunkOfStored } from "./stored-chunk";
import { onThreadEvent } from "./thread-events";

/** Options of {@link followThread}. */
export interface FollowOptions {
  /** Yield events with a seq above this one (0: from the thread's first event). */
  after: number;
  /**
   * The run to follow: only its events are yielded, and the follow ends with its last one.
   * Without it the follow adopts the run of the first stored event it reads after `after`.
   */
  runId?: string;
  /** Ends the follow (the generator returns; no error). */
  signal?: AbortSignal;
  /** Where notifications come from (defaults to the process's fan-out). */
  fanout?: Fanout;
  /** Safety-net poll interval in ms: the database is re-read this often without notifications. */
  pollMs?: number;
  /**
   * How long a followed run may stay ended (its Run row no longer `running`) without its
   * final run part being stored before the follow gives up, in ms (a run that was cut off,
   * e.g. marked interrupted by a continue, never stores one).
   */
  endedGraceMs?: number;
  /** Rows read per database query. */
  batch?: number;
  /**
   * How long the final run part waits for its run's after-run work (the run still holding
   * the thread's lease: memory hooks, webhooks) before it is yielded anyway, in ms
   * (default 5 s; a worker killed there leaves the lease to recovery).
   */
  afterRunGraceMs?: number;
}

/** One followed event: its seq (the cursor to resume after) and the chunk the run streamed. */
export interface FollowedChunk {
  seq: number;
  chunk: RunChunk;
}

/** Run row statuses of a run that has not ended: waiting for a worker, or executing. */
export const ACTIVE_RUN_STATUSES: readonly string[] = ["queued", "running"];

/** Run statuses of a final run part: everything but `running` ends a run's stream. */
const isFinalRun = (chunk: RunChunk): boolean => chunk.type === "data-run" && chunk.data.status !== "running";

/**
 * Follows a thread's stored run events (docs/architecture.md#live-streams): replays the
 * RunEvents with seq > `after` in seq order, then follows new ones as they are stored,
 * yielding the chunk each stands for (lib/events/stored-chunk.ts; stored-only events are
 * skipped). Notifications (lib/events/thread-events.ts) only wake it up: it always re-reads
 * the database from its cursor, so a lost, late or repeated notification causes no gap and
 * no duplicate. It also re-reads every `pollMs` (default 1 s), which is how two processes on
 * one SQLite file (no notifications between them) follow each other.
 *
 * It ends after yielding the followed run's final `data-run` part (any status but running:
 * completed, failed, awaiting_approval, …), when that run's row has ended without one for
 * `endedGraceMs` (default 3 s), or when `signal` aborts.
 * @throws whatever the database throws.
 */
export async function* followThread(db: Db, threadId: string, opts: FollowOptions): AsyncGenerator<FollowedChunk> {
  const { signal, pollMs = 1_000, endedGraceMs = 3_000, batch = 200, afterRunGraceMs = 5_000 } = opts;
  let cursor = opts.after;
  let followed = opts.runId ?? null;
  let pending = true;
  let wake: (() => void) | null = null;
  const rouse = () => {
    pending = true;
    wake?.();
  };
  const unlisten = onThreadEvent(
    threadId,
    (notice) => {
      if (notice.seq > cursor) rouse();
    },
    opts.fanout,
  );
  signal?.addEventListener("abort", rouse);
  /** When the followed run's row was first seen ended with nothing left to read (ms). */
  let endedSince: number | null = null;
  try {
    while (!signal?.aborted) {
      pending = false;
      const rows = await db.runEvent.findMany({
        where: { threadId, seq: { gt: cursor } },
        orderBy: { seq: "asc" },
        take: batch,
        select: { seq: true, runId: true, type: true, data: true },
      });
      for (const row of rows) {
        if (signal?.aborted) return;
        cursor = row.seq;
        if (followed === null && row.runId) followed = row.runId;
        if (followed !== null && row.runId !== followed) continue;
        const chunk = chunkOfStored(row);
        if (!chunk) continue;
        if (isFinalRun(chunk)) {
          await afterRunWork(db, threadId, row.runId ?? "", afterRunGraceMs, signal);
          yield { seq: row.seq, chunk };
          return;
        }
        yield { seq: row.seq, chunk };
      }
      if (rows.length > 0) endedSince = null;
      if (rows.length === batch) continue;
      if (followed !== null && rows.length === 0) {
        const run = await db.run.findUnique({ where: { id: followed }, select: { status: true } });
        if (!run || !ACTIVE_RUN_STATUSES.includes(run.status)) {
          endedSince ??= Date.now();
          if (Date.now() - endedSince >= endedGraceMs) return;
        } else {
          endedSince = null;
        }
      }
      if (pending || signal?.aborted) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, endedSince === null ? pollMs : Math.min(pollMs, endedGraceMs));
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  } finally {
    unlisten();
    signal?.removeEventListener("abort", rouse);
  }
}

/**
 * Waits while run `runId` still holds the thread's lease, up to `maxMs` ms: a run's final
 * event is stored in the same transaction as its end (docs/durability.md "Events after a
 * crash"), and its after-run work (summary and facts, webhooks) runs after that, before the
 * lease is released. So a follower that ends on the final part sees that work done, as
 * docs/architecture.md#memory promises. Polls every 25 ms.
 */
async function afterRunWork(db: Db, threadId: string, runId: string, maxMs: number, signal: AbortSignal | undefined): Promise<void> {
  const until = Date.now() + maxMs;
  while (!signal?.aborted && Date.now() < until && (await leaseRunOf(db, threadId)) === runId) {
    await new Promise((r) => setTimeout(r, 25));
  }
}
