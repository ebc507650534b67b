import { isSqliteBusy } from "./prisma-error-code";

/** Options of {@link retryWhileSqliteBusy}. */
export interface BusyRetryOptions {
  /** Tries in all, the first included (default 5). */
  attempts?: number;
  /** Pause before try n+1: `pauseMs × n` ms (default 50). */
  pauseMs?: number;
}

/**
 * Runs `fn` (a whole transaction) again while SQLite refuses it as locked (docs/databases.md
 * "SQLite under load"). The busy timeout covers a statement that waits for the lock, but not
 * SQLITE_BUSY_SNAPSHOT: a transaction that read, then found another connection had written
 * since, can only roll back and start over, and the busy handler is not called for it. The
 * refused transaction wrote nothing, so trying it again is safe; any other error, and the
 * last busy one, is thrown as it came.
 * @throws whatever `fn` throws.
 */
export async function retryWhileSqliteBusy<T>(fn: () => Promise<T>, opts: BusyRetryOptions = {}): Promise<T> {
  const attempts = opts.attempts ?? 5;
  const pauseMs = opts.pauseMs ?? 50;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts || !isSqliteBusy(err)) throw err;
      await new Promise((r) => setTimeout(r, pauseMs * attempt));
    }
  }
}
