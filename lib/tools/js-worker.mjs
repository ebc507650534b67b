// @ts-check
/**
 * The run_javascript sandbox, run by a worker thread of the pool (lib/tools/js-pool.ts), so a
 * script never holds the server's event loop (docs/security.md "CPU isolation"). Plain ESM,
 * not TypeScript: Node loads this file as it is under vitest, `next start` and the scripts,
 * and its imports resolve from node_modules. Types: js-worker.d.mts.
 *
 * Each request gets its own WebAssembly instance with its own linear memory, then a fresh
 * QuickJS runtime and context. V8 keeps the compiled wasm code, so an instance costs a few ms.
 * A per-call instance is what makes the limits real:
 * - memory: QuickJS's `setMemoryLimit` only bounds single allocations in this build (its
 *   accounting adds 8 bytes per block: quickjs-emscripten issues #255 and #271), so the
 *   instance's `WebAssembly.Memory` is capped at the 16 MB the module starts with plus the
 *   limit; growing past it fails inside QuickJS as "out of memory".
 * - stack: QuickJS's own limit stops ordinary recursion, but some recursion (JSON.stringify
 *   of deep arrays, toString loops) exhausts the host's stack first; that RangeError unwinds
 *   the instance mid-call, so the instance is dropped, never reused.
 * - CPU: an interrupt handler stops the script at its deadline (uncatchable by the script).
 *   It is the first line only: the pool terminates the whole thread when no answer comes
 *   shortly after the deadline.
 */
import { readlinkSync } from "node:fs";
import { constants, setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import variant from "@jitl/quickjs-wasmfile-release-sync";
import { newQuickJSWASMModuleFromVariant, newVariant } from "quickjs-emscripten-core";

/** Memory the QuickJS module starts with (its data, C stack and first heap), bytes. */
const BASE_MEMORY_BYTES = 16 * 1024 * 1024;
const WASM_PAGE_BYTES = 65_536;

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

/** Thrown inside {@link runScript} to end it with a failure. */
class Stop {
  /** @param {import("./js-worker.mjs").ScriptFailure} failure */
  constructor(failure) {
    this.failure = failure;
  }
}

/**
 * Console lines, at most `maxLines` (the last one says how many were dropped), each cut at
 * `maxChars`.
 * @param {number} maxLines
 * @param {number} maxChars
 */
function logBuffer(maxLines, maxChars) {
  /** @type {string[]} */
  const lines = [];
  let dropped = 0;
  return {
    /** @param {string} level @param {string} text */
    push(level, text) {
      if (lines.length >= maxLines - 1) {
        dropped += 1;
        return;
      }
      const line = (level === "warn" || level === "error" ? `[${level}] ` : "") + text;
      lines.push(line.length > maxChars ? `${line.slice(0, maxChars)}…` : line);
    },
    done: () => (dropped > 0 ? [...lines, `[… ${dropped} more console lines not shown]`] : lines),
  };
}

/**
 * What went wrong in the VM, judged by the host.
 * @param {import("quickjs-emscripten-core").QuickJSContext} vm
 * @param {import("quickjs-emscripten-core").QuickJSHandle} handle
 * @returns {import("./js-worker.mjs").ScriptFailure}
 */
function describeVmError(vm, handle) {
  /** @type {unknown} */
  let dumped;
  try {
    dumped = vm.dump(handle);
  } catch {
    return { kind: "memory" };
  }
  const e = /** @type {{ name?: unknown; message?: unknown; stack?: unknown }} */ (dumped && typeof dumped === "object" ? dumped : { message: String(dumped) });
  const name = typeof e.name === "string" ? e.name : "Error";
  const message = typeof e.message === "string" ? e.message : String(dumped);
  if (name === "InternalError" && /out of memory/.test(message)) return { kind: "memory" };
  const where = typeof e.stack === "string" ? (/\(script\.js:(\d+):(\d+)\)/.exec(e.stack)?.slice(1, 3).join(":") ?? "") : "";
  return { kind: "error", name, message: message.length > 2000 ? `${message.slice(0, 2000)}…` : message, where };
}

/**
 * Turns an exception thrown out of the wasm instance itself (not by the script) into a failure.
 * @param {unknown} err
 * @returns {import("./js-worker.mjs").ScriptFailure}
 */
function hostFailure(err) {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof RangeError && /call stack/i.test(message)) {
    return { kind: "error", name: "InternalError", message: "stack overflow (the script recursed too deeply)", where: "" };
  }
  if (/out of memory|OOM|memory access out of bounds|Cannot enlarge memory|Aborted\(/i.test(message)) return { kind: "memory" };
  return { kind: "error", name: "InternalError", message: `the sandbox stopped: ${message}`, where: "" };
}

/**
 * Runs one script to its end, its deadline or its limit. Synchronous once the instance is
 * loaded: it holds the thread it runs on.
 * @param {import("./js-worker.mjs").ScriptRequest} req
 * @param {{ interrupt?: boolean; onStart?: () => void }} [opts] `interrupt: false` leaves the
 *   script without its interrupt handler (tests of the pool's hard kill); `onStart` is called
 *   when the script's deadline starts.
 * @returns {Promise<import("./js-worker.mjs").ScriptResult>}
 */
export async function runScript(req, opts = {}) {
  const started = performance.now();
  const maximum = Math.ceil((BASE_MEMORY_BYTES + req.memoryBytes) / WASM_PAGE_BYTES);
  const memory = new WebAssembly.Memory({ initial: BASE_MEMORY_BYTES / WASM_PAGE_BYTES, maximum });
  const quickjs = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory: memory }));
  const logs = logBuffer(req.maxLogLines, req.maxLogLineChars);
  const deadline = Date.now() + req.timeoutMs;
  opts.onStart?.();
  let timedOut = false;
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(req.memoryBytes);
  runtime.setMaxStackSize(req.stackBytes);
  if (opts.interrupt !== false) {
    runtime.setInterruptHandler(() => {
      if (Date.now() > deadline) timedOut = true;
      return timedOut;
    });
  }
  const vm = runtime.newContext();
  let succeeded = false;
  /** @param {import("quickjs-emscripten-core").QuickJSHandle} handle @returns {never} */
  const fail = (handle) => {
    const failure = timedOut ? /** @type {const} */ ({ kind: "timeout" }) : describeVmError(vm, handle);
    handle.dispose();
    throw new Stop(failure);
  };
  try {
    // The prelude: input, console, and the result serialiser.
    const prelude = vm.evalCode(PRELUDE, "prelude.js", { type: "global", strict: true });
    if (prelude.error) fail(prelude.error);
    const setup = vm.unwrapResult(prelude);
    const sink = vm.newFunction("sink", (level, text) => {
      if (vm.typeof(level) === "string" && vm.typeof(text) === "string") logs.push(vm.getString(level), vm.getString(text));
    });
    const args = [sink, vm.newString(req.inputJson), vm.newNumber(req.maxLogLineChars + 1)];
    const made = vm.callFunction(setup, vm.undefined, ...args);
    for (const a of args) a.dispose();
    setup.dispose();
    if (made.error) fail(made.error);
    const serialize = vm.unwrapResult(made);
    try {
      const evaluated = vm.evalCode(req.code, "script.js", { type: "global" });
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
          throw new Stop({ kind: "timeout" });
        }
      }
      const state = vm.getPromiseState(value);
      if (state.type === "pending") {
        value.dispose();
        throw new Stop({ kind: "pending" });
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
        const failure = timedOut ? /** @type {const} */ ({ kind: "timeout" }) : describeVmError(vm, json.error);
        json.error.dispose();
        throw new Stop(failure.kind === "error" ? { kind: "not_json", name: failure.name, message: failure.message } : failure);
      }
      const text = vm.getString(json.value);
      json.value.dispose();
      succeeded = true;
      return { ok: true, json: text, logs: logs.done(), durationMs: Math.round(performance.now() - started) };
    } finally {
      serialize.dispose();
    }
  } catch (err) {
    if (err instanceof Stop) return { ok: false, failure: err.failure };
    // Thrown by the instance itself (host stack overflow, wasm trap): the instance is unusable.
    return { ok: false, failure: timedOut ? { kind: "timeout" } : hostFailure(err) };
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
 * Lowers this thread's CPU priority (nice 10, "below normal"), so that when scripts and
 * requests compete for cores the scheduler favours the event loop. Linux only: nice is
 * per thread there, and /proc/thread-self names this thread's id; elsewhere the thread
 * keeps the process's priority.
 */
function lowerThreadPriority() {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) setPriority(tid, constants.priority.PRIORITY_BELOW_NORMAL);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}

// As a worker thread: one request at a time, "started" when its deadline starts, then the result.
if (parentPort) {
  lowerThreadPriority();
  const port = parentPort;
  const interrupt = /** @type {{ interrupt?: boolean } | undefined} */ (workerData)?.interrupt !== false;
  port.on("message", async (/** @type {import("./js-worker.mjs").ScriptRequest & { id: number }} */ req) => {
    /** @type {import("./js-worker.mjs").ScriptResult} */
    let result;
    try {
      result = await runScript(req, { interrupt, onStart: () => port.postMessage({ id: req.id, type: "started" }) });
    } catch (err) {
      // Loading the instance failed (e.g. no memory for it).
      result = { ok: false, failure: hostFailure(err) };
    }
    port.postMessage({ id: req.id, type: "done", result });
  });
}
