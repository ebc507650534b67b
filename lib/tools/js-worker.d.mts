/**
 * Types of the run_javascript worker (js-worker.mjs), the messages the pool exchanges with it
 * (docs/security.md "CPU isolation").
 */

/** One script to run, with every limit spelled out (the worker has no defaults of its own). */
export interface ScriptRequest {
  code: string;
  /** The script's `input` as JSON text. */
  inputJson: string;
  /** CPU deadline, ms, counted from when the instance is loaded. */
  timeoutMs: number;
  /** Memory the script may use, bytes. */
  memoryBytes: number;
  /** QuickJS's stack limit, bytes. */
  stackBytes: number;
  /** Most console lines kept (the last says how many were dropped). */
  maxLogLines: number;
  /** Longest console line kept, chars. */
  maxLogLineChars: number;
}

/**
 * Why a script did not produce a result: its deadline, its memory, a JavaScript error (with
 * its name, message and "line:column"), a promise that never settled, or a result that is not
 * JSON.
 */
export type ScriptFailure =
  | { kind: "timeout" }
  | { kind: "memory" }
  | { kind: "error"; name: string; message: string; where: string }
  | { kind: "pending" }
  | { kind: "not_json"; name: string; message: string };

/** The outcome of one script: its result as JSON text and console lines, or its failure. */
export type ScriptResult = { ok: true; json: string; logs: string[]; durationMs: number } | { ok: false; failure: ScriptFailure };

/** A message from the worker: the deadline started, or the script ended. */
export type WorkerMessage = { id: number; type: "started" } | { id: number; type: "done"; result: ScriptResult };

/**
 * Runs one script on the calling thread (the worker does this for each request; the CPU
 * bench calls it directly to show the old in-loop behaviour).
 * @param opts `interrupt: false` leaves the script without its interrupt handler (tests of
 *   the hard kill); `onStart` is called when the deadline starts.
 */
export function runScript(req: ScriptRequest, opts?: { interrupt?: boolean; onStart?: () => void }): Promise<ScriptResult>;
