import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type ResourceLimits, Worker } from "node:worker_threads";
import { AppError } from "../errors";
import type { ScriptFailure, ScriptRequest, ScriptResult, WorkerMessage } from "./js-worker.mjs";

/** How long past a script's deadline the pool waits before it terminates the thread, ms. */
export const KILL_GRACE_MS = 500;

/**
 * V8 heap limits of each worker thread, a second bound beside the script's capped wasm
 * memory (which V8 does not count here): it holds the result and console text on their way
 * out, so it is a few times the default 32 MB script limit.
 */
export const WORKER_RESOURCE_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

/** Options of a {@link JsPool}. */
export interface JsPoolOptions {
  /** Worker threads, i.e. scripts running at once (>= 1). */
  size: number;
  /** Scripts waiting for a thread; one more is refused with "js_busy" (>= 0). */
  maxQueued: number;
  /** Absolute path of the worker entry (default: lib/tools/js-worker.mjs). */
  workerFile?: string;
  /** V8 limits of each thread (default {@link WORKER_RESOURCE_LIMITS}). */
  resourceLimits?: ResourceLimits;
  /** `false` runs scripts without QuickJS's interrupt handler: only for tests of the hard kill. */
  interrupt?: boolean;
}

interface Job {
  id: number;
  req: ScriptRequest;
  signal: AbortSignal | undefined;
  settle(result: ScriptResult): void;
  fail(err: AppError): void;
}

interface Slot {
  worker?: Worker;
  job?: Job;
  timer?: NodeJS.Timeout;
}

const stopped = (message: string): ScriptFailure => ({ kind: "error", name: "InternalError", message: `the sandbox stopped: ${message}`, where: "" });

/**
 * Finds the worker entry: beside this module when it runs from source (vitest, the scripts);
 * once bundled, `next build` copies the file to .next/server/assets and the URL points at
 * the copy (its imports still resolve from the project's node_modules); the working
 * directory's lib/tools is the last resort (`next start` runs from the project root).
 * @throws AppError internal / "js_unavailable" when neither exists.
 */
function findWorkerFile(): string {
  const name = "js-worker.mjs";
  const candidates = [path.join(process.cwd(), "lib", "tools", name)];
  try {
    candidates.unshift(fileURLToPath(new URL(name, import.meta.url)));
  } catch {
    // Not a file: URL once bundled.
  }
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new AppError("internal", "js_unavailable", `The JavaScript sandbox is missing (${name}); start the server from the project directory.`);
  return found;
}

/**
 * A small pool of worker threads that run run_javascript scripts off the main event loop
 * (docs/security.md "CPU isolation"). Each thread runs one script at a time, each script in
 * a fresh QuickJS instance; QuickJS's interrupt handler stops a script at its deadline, and
 * when no answer comes {@link KILL_GRACE_MS} later (or the caller's signal aborts) the pool
 * terminates the thread and starts another. Threads start on first use and never keep the
 * process alive while idle. Limits are per process.
 */
export class JsPool {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private file: string | undefined;
  private nextId = 1;
  private closed = false;
  /** Threads started so far (a replaced thread counts again). */
  private spawned = 0;

  constructor(private readonly options: JsPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, Math.floor(options.size)) }, () => ({}));
    this.file = options.workerFile;
  }

  /**
   * Runs one script on a free thread, or queues it.
   * @returns the script's result or failure; a thread killed at the deadline gives a
   *   "timeout" failure, one past its heap limit a "memory" failure.
   * @throws AppError too_many_requests / "js_busy" when every thread is busy and the queue is
   *   full; internal / "aborted" when `signal` aborts before the script starts.
   */
  run(req: ScriptRequest, signal?: AbortSignal): Promise<ScriptResult> {
    if (this.closed) return Promise.reject(new AppError("internal", "aborted", "The JavaScript sandbox is shutting down; try again."));
    if (signal?.aborted) return Promise.reject(new AppError("internal", "aborted", "run_javascript was cancelled before the script started."));
    const idle = this.slots.some((s) => !s.job);
    if (!idle && this.queue.length >= this.options.maxQueued) {
      return Promise.reject(
        new AppError("too_many_requests", "js_busy", `Too many scripts are running on this server (${this.slots.length} running, ${this.queue.length} waiting); try again in a few seconds.`),
      );
    }
    return new Promise<ScriptResult>((resolve, reject) => {
      const onAbort = () => {
        const waiting = this.queue.indexOf(job);
        if (waiting >= 0) {
          this.queue.splice(waiting, 1);
          job.fail(new AppError("internal", "aborted", "run_javascript was cancelled before the script started."));
        }
        const slot = this.slots.find((s) => s.job === job);
        if (slot) this.kill(slot, { kind: "timeout" });
      };
      const done = () => signal?.removeEventListener("abort", onAbort);
      const job: Job = {
        id: this.nextId++,
        req,
        signal,
        settle: (r) => {
          done();
          resolve(r);
        },
        fail: (e) => {
          done();
          reject(e);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Threads, busy threads and queued scripts right now, and threads started so far (a replaced one counts again). */
  stats(): { size: number; busy: number; queued: number; started: number } {
    return { size: this.slots.length, busy: this.slots.filter((s) => s.job).length, queued: this.queue.length, started: this.spawned };
  }

  /** Terminates every thread; queued and running scripts fail with "aborted". */
  async close(): Promise<void> {
    this.closed = true;
    const closing = new AppError("internal", "aborted", "The JavaScript sandbox is shutting down; try again.");
    for (const job of this.queue.splice(0)) job.fail(closing);
    await Promise.all(
      this.slots.map(async (slot) => {
        const { worker, job } = slot;
        this.release(slot);
        job?.fail(closing);
        await worker?.terminate();
      }),
    );
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.job) continue;
      const job = this.nextJob();
      if (!job) return;
      slot.job = job;
      const worker = slot.worker ?? this.spawn(slot);
      worker.ref(); // a running script keeps the process alive; an idle thread does not
      worker.postMessage({ ...job.req, id: job.id });
    }
  }

  /** The next queued job whose caller still waits. */
  private nextJob(): Job | undefined {
    while (!this.closed) {
      const job = this.queue.shift();
      if (!job?.signal?.aborted) return job;
      job.fail(new AppError("internal", "aborted", "run_javascript was cancelled before the script started."));
    }
    return undefined;
  }

  private spawn(slot: Slot): Worker {
    this.file ??= findWorkerFile();
    const worker = new Worker(this.file, {
      workerData: { interrupt: this.options.interrupt !== false },
      resourceLimits: this.options.resourceLimits ?? WORKER_RESOURCE_LIMITS,
    });
    this.spawned += 1;
    slot.worker = worker;
    worker.unref();
    worker.on("message", (m: WorkerMessage) => {
      const job = slot.job;
      if (slot.worker !== worker || !job || m.id !== job.id) return;
      if (m.type === "started") {
        slot.timer = setTimeout(() => this.kill(slot, { kind: "timeout" }), job.req.timeoutMs + KILL_GRACE_MS);
        return;
      }
      clearTimeout(slot.timer);
      slot.job = undefined;
      worker.unref();
      job.settle(m.result);
      this.dispatch();
    });
    worker.on("error", (err: Error & { code?: string }) => {
      if (slot.worker === worker) this.kill(slot, err.code === "ERR_WORKER_OUT_OF_MEMORY" ? { kind: "memory" } : stopped(err.message));
    });
    worker.on("exit", (code) => {
      if (slot.worker === worker) this.kill(slot, stopped(`its thread exited (code ${code})`));
    });
    return worker;
  }

  /** Drops the slot's thread (terminating it), fails its script with `failure`, and moves on. */
  private kill(slot: Slot, failure: ScriptFailure): void {
    const { worker, job } = slot;
    this.release(slot);
    void worker?.terminate();
    job?.settle({ ok: false, failure });
    this.dispatch();
  }

  private release(slot: Slot): void {
    clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.worker = undefined;
    slot.job = undefined;
  }
}
