import { AsyncLocalStorage } from "node:async_hooks";
import { type DestinationStream, type Logger, pino } from "pino";
import { env } from "./env";

/**
 * Structured logs (every log line carries the ids of its run, so one
 * run's lines can be found: docs/architecture.md#events-and-telemetry). One pino logger per server process writes JSON lines
 * to stdout at `LOG_LEVEL`; a mixin adds the ids of the run the line was logged in
 * (`traceId`, `threadId`, `runId`, each null outside a run), read from an
 * AsyncLocalStorage context that the run service enters around the graph
 * ({@link withLogContext}), so lines logged in nodes, tools and services need not pass
 * them. Modules log through a child: `logger.child({ module: "gateway" })`.
 */

/** The ids a log line is tagged with: the run's W3C trace id, its thread and the run. */
export interface LogContext {
  /** 32 lower-case hex chars (W3C trace id). */
  traceId: string;
  threadId: string | null;
  runId: string | null;
}

// Kept on globalThis so that Next.js's module copies (instrumentation, route bundles) share
// one context and one logger.
const g = globalThis as {
  __phylacteryLogContext?: AsyncLocalStorage<LogContext>;
  __phylacteryLogSink?: { current: DestinationStream };
  __phylacteryLogger?: Logger;
};
g.__phylacteryLogContext ??= new AsyncLocalStorage<LogContext>();
g.__phylacteryLogSink ??= { current: pino.destination({ dest: 1, sync: true }) };
const store = g.__phylacteryLogContext;
const sink = g.__phylacteryLogSink;

/** The destination pino writes to: forwards each line to the current sink (see setLogDestination). */
const forward: DestinationStream = { write: (line: string) => sink.current.write(line) };

g.__phylacteryLogger ??= pino(
  {
    level: env().LOG_LEVEL,
    mixin() {
      const ctx = store.getStore();
      return { traceId: ctx?.traceId ?? null, threadId: ctx?.threadId ?? null, runId: ctx?.runId ?? null };
    },
  },
  forward,
);

/**
 * The process's logger. Every line is one JSON object with pino's fields (`level`, `time`
 * in ms since the epoch, `msg`) plus `traceId`, `threadId` and `runId` of the current
 * {@link LogContext} (null outside one); errors go under `err` (`logger.error({ err }, "...")`).
 */
export const logger: Logger = g.__phylacteryLogger;

/**
 * Runs `fn` inside a log context: every line logged by it, and by everything it starts
 * (promises, timers, LangGraph nodes), carries these ids. Contexts nest; the innermost wins.
 * @returns what `fn` returns.
 */
export function withLogContext<T>(ctx: LogContext, fn: () => T): T {
  return store.run({ traceId: ctx.traceId, threadId: ctx.threadId, runId: ctx.runId }, fn);
}

/** The current log context (the run being served), or undefined outside any. */
export function logContext(): LogContext | undefined {
  return store.getStore();
}

/**
 * Sends the logger's lines to `stream` instead of stdout (tests capture lines this way;
 * an embedder may send them to a file). Each line is one JSON object ending in "\n".
 * @param opts.level the level to log at while this destination is set (e.g. "info" for a
 *   test that reads lines while the suite runs with LOG_LEVEL=silent); default unchanged.
 * @returns the function that restores the previous destination (and level).
 */
export function setLogDestination(stream: DestinationStream, opts: { level?: string } = {}): () => void {
  const previous = sink.current;
  const previousLevel = logger.level;
  sink.current = stream;
  if (opts.level) logger.level = opts.level;
  return () => {
    sink.current = previous;
    logger.level = previousLevel;
  };
}
