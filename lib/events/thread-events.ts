import { z } from "zod";
import type { Fanout, Unlisten } from "./fanout";
import { fanout as processFanout } from "./fanout-of";

/**
 * "A run event was stored" notifications (docs/architecture.md#live-streams): the writer
 * of a RunEvent notifies its thread, seq and run on one fan-out channel; followers of the
 * thread (lib/runs/follow-thread.ts, the run view's watcher) wake up and re-read the
 * database from their cursor. Ids only: the event itself is read from the database.
 */
export const THREAD_EVENTS_CHANNEL = "phylactery_run_events";

/** The notification's payload: short keys keep it small (thread, seq, run). */
const Payload = z.object({ t: z.string(), s: z.number().int(), r: z.string().nullable().optional() });

/** A stored run event, as a notification names it. */
export interface ThreadEventNotice {
  threadId: string;
  /** The RunEvent's seq (per thread, from 1). */
  seq: number;
  /** Its run, when the writer said. */
  runId: string | null;
}

/**
 * Tells every process that the RunEvent `seq` of a thread is stored. Call it after the row
 * is committed. Best effort: never rejects (followers poll).
 * @param to the fan-out (defaults to the process's, lib/events/fanout-of.ts).
 */
export function notifyThreadEvent(threadId: string, seq: number, runId: string | null = null, to: Fanout = processFanout()): Promise<void> {
  return to.notify(THREAD_EVENTS_CHANNEL, { t: threadId, s: seq, r: runId });
}

/**
 * Calls `handler` for every stored-event notification of one thread (or of every thread when
 * `threadId` is null). Malformed payloads are dropped.
 * @returns the function that stops listening (its `ready` settles once listening).
 */
export function onThreadEvent(threadId: string | null, handler: (notice: ThreadEventNotice) => void, from: Fanout = processFanout()): Unlisten {
  return from.listen(THREAD_EVENTS_CHANNEL, (payload) => {
    const p = Payload.safeParse(payload);
    if (!p.success || (threadId !== null && p.data.t !== threadId)) return;
    handler({ threadId: p.data.t, seq: p.data.s, runId: p.data.r ?? null });
  });
}
