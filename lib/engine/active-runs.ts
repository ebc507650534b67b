/**
 * Which threads have a run streaming in this server process. Kept on globalThis so that
 * every route module copy in the process shares it. It knows nothing of the engine, so the
 * memory services can ask it without importing the run service.
 *
 * One process only: a second instance of the server does not see these runs (a lease in the
 * database replaces this set when runs become jobs).
 */

const g = globalThis as { __phylacteryActiveRuns?: Set<string> };
g.__phylacteryActiveRuns ??= new Set<string>();
const active = g.__phylacteryActiveRuns;

/**
 * True while a run of the thread streams in this server process. A thread marked running
 * without one was interrupted (the server stopped) and can be continued.
 */
export function isRunActive(threadId: string): boolean {
  return active.has(threadId);
}

/** Marks the thread's run as streaming (call {@link markRunEnded} when it stops, in a finally). */
export function markRunActive(threadId: string): void {
  active.add(threadId);
}

/** Marks the thread's run as no longer streaming. */
export function markRunEnded(threadId: string): void {
  active.delete(threadId);
}
