import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSContext, type QuickJSHandle } from "quickjs-emscripten-core";
import { z } from "zod";
import { AppError } from "../errors";
import type { ToolDefinition } from "./types";

/**
 * `run_javascript`: runs a script in QuickJS compiled to WebAssembly (seed 004 Code Sandbox:
 * "permisos mínimos", limits on CPU, memory and time, nothing persists). The script has the
 * ECMAScript built-ins, a frozen `input` and a `console` that is captured; no `process`,
 * `require`, modules, timers, network or files (SPEC.md 7: tools reach nothing they are not
 * given). Never node:vm.
 *
 * Isolation: every call gets its own WebAssembly instance with its own linear memory, then a
 * fresh QuickJS runtime and context. V8 keeps the compiled wasm code, so an instance costs a
 * few ms. A per-call instance is what makes the limits real:
 * - memory: QuickJS's `setMemoryLimit` only bounds single allocations in this build (its
 *   accounting adds 8 bytes per block: quickjs-emscripten issues #255 and #271), so the
 *   instance's `WebAssembly.Memory` is capped at the 16 MB the module starts with plus the
 *   limit; growing past it fails inside QuickJS as "out of memory".
 * - stack: QuickJS's own limit stops ordinary recursion, but some recursion (JSON.stringify
 *   of deep arrays, toString loops) exhausts the host's stack first; that RangeError unwinds
 *   the instance mid-call, so the instance is dropped, never reused.
 * - CPU: an interrupt handler stops the script at its deadline (uncatchable by the script).
 *   The script runs synchronously: it holds the server's event loop until it ends or the
 *   deadline passes, which is why the deadline is short.
 */

/** Longest script, chars. */
export const MAX_CODE_CHARS = 100_000;
/** Largest `input`, chars of JSON. */
export const MAX_INPUT_JSON_CHARS = 1_000_000;
/** Memory a script may use, bytes (32 MB). */
export const MEMORY_LIMIT_BYTES = 32 * 1024 * 1024;
/** QuickJS's stack limit, bytes (256 KB; see the module header for why not more). */
export const STACK_LIMIT_BYTES = 256 * 1024;
/** Default CPU deadline of one call, ms. */
export const DEFAULT_JS_TIMEOUT_MS = 5_000;
/** Most console lines kept; each is cut at {@link MAX_LOG_LINE_CHARS}. */
export const MAX_LOG_LINES = 200;
/** Longest console line kept, chars. */
export const MAX_LOG_LINE_CHARS = 1_000;

/** Memory the QuickJS module starts with (its data, C stack and first heap), bytes. */
const BASE_MEMORY_BYTES = 16 * 1024 * 1024;
const WASM_PAGE_BYTES = 65_536;

const Input = z.object({
  code: z
    .string()
    .min(1)
    .max(MAX_CODE_CHARS)
    .describe("JavaScript (ES2023, no modules). The value of the last expression is the result; a promise is awaited. Use console.log to print."),
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
}

/**
 * Runs inside the VM before the script: defines the frozen `input` and a captured `console`
 * (lines cut in the VM so a huge string never crosses to the host), and returns the
 * serialiser of the result, bound before the script could replace JSON.stringify.
 */
const PRELUDE = `(function (sink, json, maxChars) {
  "use strict";
  const stringify = JSON.stringify;
  const freeze = (v) => { if (v !== null && typeof v === "object") { Object.freeze(v); for (const k of Object.keys(v)) freeze(v[k]); } return v; };
  Object.defineProperty(globalThis, "input", { value: freeze(JSON.parse(json)), writable: false, enumerable: false, configurable: false });
  const show = (v) => { if (typeof v === "string") return v; try { const s = stringify(v); return s === undefined ? String(v) : s; } catch { return String(v); } };
  const make = (level) => (...args) => { let s = args.map(show).join(" "); if (s.length > maxChars) s = s.slice(0, maxChars) + "…"; sink(level, s); };
  const console = Object.freeze({ log: make("log"), info: make("info"), debug: make("debug"), warn: make("warn"), error: make("error") });
  Object.defineProperty(globalThis, "console", { value: console, writable: false, enumerable: false, configurable: false });
  return (value) => { const s = stringify(value); return s === undefined ? "null" : s; };
})`;

class LogBuffer {
  readonly lines: string[] = [];
  private dropped = 0;
  push(level: string, text: string): void {
    if (this.lines.length >= MAX_LOG_LINES - 1) {
      this.dropped += 1;
      return;
    }
    const prefix = level === "warn" || level === "error" ? `[${level}] ` : "";
    const line = prefix + text;
    this.lines.push(line.length > MAX_LOG_LINE_CHARS ? `${line.slice(0, MAX_LOG_LINE_CHARS)}…` : line);
  }
  done(): string[] {
    return this.dropped > 0 ? [...this.lines, `[… ${this.dropped} more console lines not shown]`] : this.lines;
  }
}

/** What went wrong in the VM, judged by the host. */
type Failure = { kind: "timeout" } | { kind: "memory" } | { kind: "error"; name: string; message: string; where: string };

function describeVmError(vm: QuickJSContext, handle: QuickJSHandle): Failure {
  let dumped: unknown;
  try {
    dumped = vm.dump(handle);
  } catch {
    return { kind: "memory" };
  }
  const e = (dumped && typeof dumped === "object" ? dumped : { message: String(dumped) }) as { name?: unknown; message?: unknown; stack?: unknown };
  const name = typeof e.name === "string" ? e.name : "Error";
  const message = typeof e.message === "string" ? e.message : String(dumped);
  if (name === "InternalError" && /out of memory/.test(message)) return { kind: "memory" };
  const where = typeof e.stack === "string" ? (/\(script\.js:(\d+):(\d+)\)/.exec(e.stack)?.slice(1, 3).join(":") ?? "") : "";
  return { kind: "error", name, message: message.length > 2000 ? `${message.slice(0, 2000)}…` : message, where };
}

function toAppError(f: Failure, timeoutMs: number, memoryBytes: number): AppError {
  switch (f.kind) {
    case "timeout":
      return new AppError("unprocessable", "js_timeout", `The script ran longer than ${timeoutMs} ms and was stopped; look for an endless loop, or do less work per call.`);
    case "memory":
      return new AppError("unprocessable", "js_memory_limit", `The script used more than ${Math.round(memoryBytes / 1_048_576)} MB of memory and was stopped; work on smaller data.`);
    case "error":
      return new AppError("unprocessable", "js_error", `JavaScript error: ${f.name}: ${f.message}${f.where ? ` (line:column ${f.where})` : ""}`, { name: f.name });
  }
}

/** Turns an exception thrown out of the wasm instance itself (not by the script) into a failure. */
function hostFailure(err: unknown): Failure {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof RangeError && /call stack/i.test(message)) {
    return { kind: "error", name: "InternalError", message: "stack overflow (the script recursed too deeply)", where: "" };
  }
  if (/out of memory|OOM|memory access out of bounds|Cannot enlarge memory|Aborted\(/i.test(message)) return { kind: "memory" };
  return { kind: "error", name: "InternalError", message: `the sandbox stopped: ${message}`, where: "" };
}

async function execute(input: JsInput, signal: AbortSignal, timeoutMs: number, memoryBytes: number): Promise<JsOutput> {
  const started = performance.now();
  const maximum = Math.ceil((BASE_MEMORY_BYTES + memoryBytes) / WASM_PAGE_BYTES);
  const memory = new WebAssembly.Memory({ initial: BASE_MEMORY_BYTES / WASM_PAGE_BYTES, maximum });
  const quickjs = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory: memory }));
  if (signal.aborted) throw new AppError("internal", "aborted", "run_javascript was cancelled before the script started.");

  const logs = new LogBuffer();
  const deadline = Date.now() + timeoutMs;
  let timedOut = false;
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(memoryBytes);
  runtime.setMaxStackSize(STACK_LIMIT_BYTES);
  runtime.setInterruptHandler(() => {
    if (Date.now() > deadline || signal.aborted) timedOut = true;
    return timedOut;
  });
  const vm = runtime.newContext();
  let succeeded = false;
  try {
    const fail = (handle: QuickJSHandle): never => {
      const failure = timedOut ? ({ kind: "timeout" } as const) : describeVmError(vm, handle);
      handle.dispose();
      throw toAppError(failure, timeoutMs, memoryBytes);
    };
    // The prelude: input, console, and the result serialiser.
    const prelude = vm.evalCode(PRELUDE, "prelude.js", { type: "global", strict: true });
    if (prelude.error) fail(prelude.error);
    const setup = vm.unwrapResult(prelude);
    const sink = vm.newFunction("sink", (level, text) => {
      if (vm.typeof(level) === "string" && vm.typeof(text) === "string") logs.push(vm.getString(level), vm.getString(text));
    });
    const args = [sink, vm.newString(JSON.stringify(input.input ?? null)), vm.newNumber(MAX_LOG_LINE_CHARS + 1)];
    const made = vm.callFunction(setup, vm.undefined, ...args);
    for (const a of args) a.dispose();
    setup.dispose();
    if (made.error) fail(made.error);
    const serialize = vm.unwrapResult(made);

    try {
      const evaluated = vm.evalCode(input.code, "script.js", { type: "global" });
      if (evaluated.error) fail(evaluated.error);
      let value = vm.unwrapResult(evaluated);
      // Microtasks (promise reactions) run until none is left or the deadline passes.
      while (runtime.hasPendingJob()) {
        const ran = runtime.executePendingJobs(1000);
        if (ran.error) {
          value.dispose();
          fail(ran.error);
        }
        if (Date.now() > deadline) {
          value.dispose();
          throw toAppError({ kind: "timeout" }, timeoutMs, memoryBytes);
        }
      }
      const state = vm.getPromiseState(value);
      if (state.type === "pending") {
        value.dispose();
        throw new AppError("unprocessable", "js_error", "JavaScript error: the script's promise never settled (the sandbox has no timers or I/O to wait for).");
      }
      if (state.type === "rejected") {
        value.dispose();
        fail(state.error);
      } else if (!state.notAPromise) {
        value.dispose();
        value = state.value;
      }
      const json = vm.callFunction(serialize, vm.undefined, value);
      value.dispose();
      if (json.error) {
        const failure = timedOut ? ({ kind: "timeout" } as const) : describeVmError(vm, json.error);
        json.error.dispose();
        if (failure.kind === "error") {
          throw new AppError("unprocessable", "js_error", `JavaScript error: the result is not JSON-serialisable (${failure.name}: ${failure.message}); return plain data.`);
        }
        throw toAppError(failure, timeoutMs, memoryBytes);
      }
      const text = vm.getString(json.value);
      json.value.dispose();
      succeeded = true;
      return { result: JSON.parse(text), logs: logs.done(), durationMs: Math.round(performance.now() - started) };
    } finally {
      serialize.dispose();
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    // Thrown by the instance itself (host stack overflow, wasm trap): the instance is unusable.
    throw toAppError(timedOut ? { kind: "timeout" } : hostFailure(err), timeoutMs, memoryBytes);
  } finally {
    // After a failure the runtime may hold objects a stopped script left behind, and QuickJS
    // asserts on freeing those: the whole instance (its memory included) is dropped instead.
    if (succeeded) {
      try {
        vm.dispose();
        runtime.dispose();
      } catch {
        // Freed with the instance.
      }
    }
  }
}

/**
 * Builds a run_javascript tool with the given limits (tests use short deadlines).
 * @throws (from `run`) AppError unprocessable / "js_error" (a JavaScript exception, with its
 *   name and message, or a result that is not JSON), "js_timeout" (past the deadline or
 *   cancelled), "js_memory_limit" (past the memory limit).
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
    // The CPU deadline plus loading the instance; the interrupt handler is what stops a script.
    timeoutMs: timeoutMs + 5_000,
    permission: "user",
    sideEffect: false,
    run: (input, ctx) => execute(input, ctx.signal, timeoutMs, memoryBytes),
  };
}

/** The built-in run_javascript tool (5 s CPU, 32 MB memory). */
export const runJavascript = createRunJavascript();
