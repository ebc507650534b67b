import type { Db } from "../db/client";
import { leaseRunOf } from "../db/lease";
import { prismaRunStore } from "./store-prisma";
import type { LiveChunk, RunChunk } from "../events/ui-parts";
import type { Fanout } from "../events/fanout";
import { followLiveText, type LiveTextEvent } from "../events/live-text";
import { chunkOfStored } from "../events/stored-chunk";
import { onThreadEvent } from "../events/thread-events";

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
  /**
   * Also yield the followed run's live text (docs/runs.md "Streaming"): the text its models are
   * writing, as {@link FollowedLive} items, when the run executes in this process. A follower
   * joining mid-answer first gets the text so far in one delta. A part whose finished text
   * was read from the database gets no more deltas.
   */
  live?: boolean;
}

/** One followed event: its seq (the cursor to resume after) and the chunk the run streamed. */
export interface FollowedChunk {
  seq: number;
  chunk: RunChunk;
}

/**
 * A live text item of the followed run: never stored, so its `seq` is the cursor it came
 * after (resuming from it loses nothing stored; the finished text is stored).
 */
export interface FollowedLive {
  seq: number;
  live: LiveChunk;
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
export function followThread(db: Db, threadId: string, opts: FollowOptions & { live: true }): AsyncGenerator<FollowedChunk | FollowedLive>;
export function followThread(db: Db, threadId: string, opts: FollowOptions): AsyncGenerator<FollowedChunk>;
export async function* followThread(db: Db, threadId: string, opts: FollowOptions): AsyncGenerator<FollowedChunk | FollowedLive> {
  const { signal, pollMs = 1_000, endedGraceMs = 3_000, batch = 200, afterRunGraceMs = 5_000 } = opts;
  let cursor = opts.after;
  const store = prismaRunStore(db);
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
  // Live text waits here until the stored events before it are read (they were stored first).
  const liveQueue: LiveTextEvent[] = [];
  /** Parts whose finished text was read from the database: their late deltas are dropped. */
  const finished = new Set<string>();
  /** Live text arrived since the last look at the run's row: its run is being written, so the row is not read. */
  let heardLive = false;
  const stopLive = opts.live
    ? followLiveText(threadId, (e) => {
        liveQueue.push(e);
        heardLive = true;
        rouse();
      })
    : () => undefined;
  /** When the followed run's row was first seen ended with nothing left to read (ms). */
  let endedSince: number | null = null;
  try {
    while (!signal?.aborted) {
      pending = false;
      // Live text heard before this read follows events stored before it, so the read sees them.
      // Text heard during the read may follow an event stored after the read's snapshot: it waits
      // for the next read (`pending` is set), or it would overtake that event.
      const heardBefore = liveQueue.length;
      const rows = await store.events({ threadId, afterSeq: cursor, take: batch });
      for (const row of rows) {
        if (signal?.aborted) return;
        cursor = row.seq;
        if (followed === null && row.runId) followed = row.runId;
        if (followed !== null && row.runId !== followed) continue;
        const chunk = chunkOfStored(row);
        if (!chunk) continue;
        if (chunk.type === "text") finished.add(chunk.id);
        if (isFinalRun(chunk)) {
          await afterRunWork(db, threadId, row.runId ?? "", afterRunGraceMs, signal);
          yield { seq: row.seq, chunk };
          return;
        }
        yield { seq: row.seq, chunk };
      }
      if (rows.length > 0) endedSince = null;
      if (rows.length === batch) continue;
      // Everything stored before this live text was just read: now the text, in order.
      for (const e of liveQueue.splice(0, heardBefore)) {
        if (signal?.aborted) return;
        if (followed === null || e.runId !== followed || finished.has(e.id)) continue;
        if (e.kind === "end") finished.add(e.id);
        yield { seq: cursor, live: e.kind === "delta" ? { type: "text-delta", id: e.id, node: e.node, delta: e.delta, at: e.at } : { type: "text-end", id: e.id, node: e.node, text: e.text } };
      }
      // A run that is writing text has not ended: its row is read when nothing else is heard
      // (every word of an answer would otherwise cost a read of the row).
      if (followed !== null && rows.length === 0 && heardLive) heardLive = false;
      else if (followed !== null && rows.length === 0) {
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
    stopLive();
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
