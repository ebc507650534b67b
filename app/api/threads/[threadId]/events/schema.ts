import { z } from "zod";

/** Route params. */
export const Params = z.object({ threadId: z.string().min(1).max(64) });

/**
 * GET query: `after`, the last run the client knows of (a run view reopening its stream after
 * its tab was hidden): when the thread's latest run is another one, it is announced at once,
 * since it started while the client was not listening; empty (`?after=`) when the client knows of
 * no run, so that any run of the thread is announced. Unknown keys are ignored.
 */
export const Query = z.object({ after: z.string().max(64).optional() });

/** Milliseconds between two `: keep-alive` comments, so proxies keep the stream open. */
export const KEEP_ALIVE_MS = 15_000;

/**
 * Milliseconds between two looks at the thread's latest run, the safety net for runs whose
 * notifications never arrive (a lost notification; two processes on one SQLite file).
 */
export const POLL_MS = 5_000;
