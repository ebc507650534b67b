import { z } from "zod";
import { AppError } from "../errors";
import type { JsPool } from "./js-pool";
import { sharedJsPool } from "./js-shared-pool";
import type { ScriptFailure } from "./js-worker.mjs";
import type { ToolDefinition } from "./types";

/**
 * `run_javascript`: runs a script in QuickJS compiled to WebAssembly (least privilege:
 * limits on CPU, memory and time, nothing persists). The script has the
 * ECMAScript built-ins, a frozen `input` and a `console` that is captured; no `process`,
 * `require`, modules, timers, network or files (tools reach nothing they are not
 * given). Never node:vm.
 *
 * Isolation (docs/security.md "CPU isolation"): the script runs on a worker thread of the
 * process's pool (js-pool.ts), never on the server's event loop, in a fresh WebAssembly
 * instance with capped memory (js-worker.mjs says how each limit holds). QuickJS's interrupt
 * handler stops it at its deadline; the pool terminates the thread if that fails. This
 * module only checks the input, picks the limits and words the failures.
 */

/** Longest script, chars. */
export const MAX_CODE_CHARS = 100_000;
/** Largest `input`, chars of JSON. */
export const MAX_INPUT_JSON_CHARS = 1_000_000;
/** Memory a script may use, bytes (32 MB). */
export const MEMORY_LIMIT_BYTES = 32 * 1024 * 1024;
/** QuickJS's stack limit, bytes (256 KB; js-worker.mjs says why not more). */
export const STACK_LIMIT_BYTES = 256 * 1024;
/** Default CPU deadline of one call, ms. */
export const DEFAULT_JS_TIMEOUT_MS = 5_000;
/** Most console lines kept; each is cut at {@link MAX_LOG_LINE_CHARS}. */
export const MAX_LOG_LINES = 200;
/** Longest console line kept, chars. */
export const MAX_LOG_LINE_CHARS = 1_000;

const Input = z.object({
  code: z.string().min(1).max(MAX_CODE_CHARS).describe("JavaScript (ES2023, no modules). The value of the last expression is the result; a promise is awaited. Use console.log to print."),
  input: z
    .json()
    .refine((v) => (JSON.stringify(v) ?? "").length <= MAX_INPUT_JSON_CHARS, { message: `must be at most ${MAX_INPUT_JSON_CHARS} chars of JSON` })
    .optional()
    .describe("Any JSON value; the script reads it as the frozen global `input`."),
});

const Output = z.object({
  /** The last expression's value as JSON (null for undefined and functions). */
  result: z.json(),
  /** Console lines; warn/error lines start with "[warn] " / "[error] ". */
  logs: z.array(z.string()),
  /** Wall time of the run, ms. */
  durationMs: z.number().nonnegative(),
});

type JsInput = z.infer<typeof Input>;
type JsOutput = z.infer<typeof Output>;

/** Limits of a {@link createRunJavascript} tool. */
export interface RunJavascriptOptions {
  /** CPU deadline of one call, ms (default {@link DEFAULT_JS_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Memory a script may use, bytes (default {@link MEMORY_LIMIT_BYTES}). */
  memoryBytes?: number;
  /** Threads that run the scripts (default: the process's pool, {@link sharedJsPool}). */
  pool?: JsPool;
}

function toAppError(f: ScriptFailure, timeoutMs: number, memoryBytes: number): AppError {
  switch (f.kind) {
    case "timeout":
      return new AppError("unprocessable", "js_timeout", `The script ran longer than ${timeoutMs} ms and was stopped; look for an endless loop, or do less work per call.`);
    case "memory":
      return new AppError("unprocessable", "js_memory_limit", `The script used more than ${Math.round(memoryBytes / 1_048_576)} MB of memory and was stopped; work on smaller data.`);
    case "pending":
      return new AppError("unprocessable", "js_error", "JavaScript error: the script's promise never settled (the sandbox has no timers or I/O to wait for).");
    case "not_json":
      return new AppError("unprocessable", "js_error", `JavaScript error: the result is not JSON-serialisable (${f.name}: ${f.message}); return plain data.`);
    case "error":
      return new AppError("unprocessable", "js_error", `JavaScript error: ${f.name}: ${f.message}${f.where ? ` (line:column ${f.where})` : ""}`, { name: f.name });
  }
}

async function execute(input: JsInput, signal: AbortSignal, pool: JsPool, timeoutMs: number, memoryBytes: number): Promise<JsOutput> {
  const request = {
    code: input.code,
    inputJson: JSON.stringify(input.input ?? null),
    timeoutMs,
    memoryBytes,
    stackBytes: STACK_LIMIT_BYTES,
    maxLogLines: MAX_LOG_LINES,
    maxLogLineChars: MAX_LOG_LINE_CHARS,
  };
  const outcome = await pool.run(request, signal);
  if (!outcome.ok) throw toAppError(outcome.failure, timeoutMs, memoryBytes);
  return { result: JSON.parse(outcome.json), logs: outcome.logs, durationMs: outcome.durationMs };
}

/**
 * Builds a run_javascript tool with the given limits (tests use short deadlines).
 * @throws (from `run`) AppError unprocessable / "js_error" (a JavaScript exception, with its
 *   name and message, or a result that is not JSON), "js_timeout" (past the deadline or
 *   cancelled), "js_memory_limit" (past the memory limit); too_many_requests / "js_busy" (every
 *   sandbox thread busy and the queue full).
 */
export function createRunJavascript(options: RunJavascriptOptions = {}): ToolDefinition<JsInput, JsOutput> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_JS_TIMEOUT_MS;
  const memoryBytes = options.memoryBytes ?? MEMORY_LIMIT_BYTES;
  return {
    name: "run_javascript",
    version: "1.0.0",
    description:
      "Run JavaScript in an isolated sandbox (QuickJS) and return the value of the last expression as JSON, with console output. Use it to compute, parse or transform data. The script sees a frozen global `input` (the input you pass) and has no network, files, timers or modules; limits: 5 s CPU, 32 MB memory.",
    input: Input,
    output: Output,
    // The CPU deadline plus waiting for a thread and loading the instance; the pool stops the script.
    timeoutMs: timeoutMs + 5_000,
    permission: "user",
    sideEffect: false,
    run: (input, ctx) => execute(input, ctx.signal, options.pool ?? sharedJsPool(), timeoutMs, memoryBytes),
  };
}

/** The built-in run_javascript tool (5 s CPU, 32 MB memory). */
export const runJavascript = createRunJavascript();
