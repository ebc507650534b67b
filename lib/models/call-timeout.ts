/**
 * The time limit of one model call (docs/runs.md "When the model misbehaves"): a call that
 * produces nothing for the flow's `limits.modelCallTimeoutMs` is aborted, through the
 * `abortSignal` every `generateText` / `streamText` call takes, and fails with
 * {@link ModelTimeoutError} ("the model did not answer within 30 s"). A streaming caller
 * calls `touch()` on each part it receives, so the limit is an idle limit (nothing for N ms),
 * not a limit on a long answer that keeps coming; a non-streaming call produces nothing until
 * it is done, so there the limit covers the whole call.
 */

/** Default limit of one model call, ms (2 minutes); lib/flow/schema.ts `limits.modelCallTimeoutMs`. */
export const DEFAULT_MODEL_CALL_TIMEOUT_MS = 120_000;

/** "30 s", "1.5 s": a duration in ms as people read it. */
export function secondsText(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** A model call that produced nothing within its limit; the message is the run's reason. */
export class ModelTimeoutError extends Error {
  override name = "ModelTimeoutError";
  /** @param timeoutMs the limit that passed, ms. */
  constructor(readonly timeoutMs: number) {
    super(`the model did not answer within ${secondsText(timeoutMs)}`);
  }
}

/** The abort side of one model call. */
export interface ModelCallDeadline {
  /** Pass as `abortSignal`; aborted with a {@link ModelTimeoutError} when the limit passes, or with the parent's reason. */
  signal: AbortSignal;
  /** Something arrived (a stream part): the limit starts again. */
  touch(): void;
  /** The call is over: stops the timer. */
  done(): void;
}

/**
 * Starts the limit of one model call.
 * @param timeoutMs idle limit, ms (> 0).
 * @param parent a signal that also aborts the call (the run's cancel), optional.
 */
export function modelCallDeadline(timeoutMs: number, parent?: AbortSignal): ModelCallDeadline {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timer) clearTimeout(timer);
    if (!controller.signal.aborted) timer = setTimeout(() => controller.abort(new ModelTimeoutError(timeoutMs)), timeoutMs);
  };
  const onParent = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParent();
  else parent?.addEventListener("abort", onParent, { once: true });
  arm();
  return {
    signal: controller.signal,
    touch: arm,
    done: () => {
      if (timer) clearTimeout(timer);
      parent?.removeEventListener("abort", onParent);
    },
  };
}

/**
 * Runs one model call under its limit ({@link modelCallDeadline}).
 * @param call the call; it passes `d.signal` as `abortSignal` (and calls `d.touch()` per stream part).
 * @returns what `call` returns.
 * @throws ModelTimeoutError when the limit passed (whatever error the SDK raised for the
 *   abort); otherwise what `call` throws.
 */
export async function withModelDeadline<T>(timeoutMs: number, call: (d: ModelCallDeadline) => Promise<T>, parent?: AbortSignal): Promise<T> {
  const d = modelCallDeadline(timeoutMs, parent);
  try {
    return await call(d);
  } catch (err) {
    if (d.signal.aborted && d.signal.reason instanceof ModelTimeoutError) throw d.signal.reason;
    throw err;
  } finally {
    d.done();
  }
}
