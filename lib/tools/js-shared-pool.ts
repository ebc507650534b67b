import { availableParallelism } from "node:os";
import { env } from "../env";
import { JsPool } from "./js-pool";

/** Scripts that may wait per worker thread before run_javascript answers "js_busy". */
export const JS_QUEUE_PER_WORKER = 4;

const KEY = Symbol.for("phylactery.jsPool");

/**
 * Worker threads of the process's pool: `JS_WORKERS`, else one less than the CPU cores and
 * at least 1, so a core stays free for the event loop while every thread spins
 * (docs/security.md "CPU isolation", "Operator settings").
 */
export function jsWorkerCount(): number {
  return env().JS_WORKERS ?? Math.max(1, availableParallelism() - 1);
}

/**
 * The process's one run_javascript pool ({@link jsWorkerCount} threads, a queue of
 * {@link JS_QUEUE_PER_WORKER} per thread), created on first use. Kept on `globalThis` so
 * that every bundle of the server shares it: the limits are per process.
 */
export function sharedJsPool(): JsPool {
  const holder = globalThis as { [KEY]?: JsPool };
  if (!holder[KEY]) {
    const size = jsWorkerCount();
    holder[KEY] = new JsPool({ size, maxQueued: size * JS_QUEUE_PER_WORKER });
  }
  return holder[KEY];
}
