import "server-only";
import { type ChildProcess, spawn } from "node:child_process";
import { getPriority, setPriority } from "node:os";
import path from "node:path";
import { ipcFanout } from "../events/fanout-of";
import { WORKER_CHILD_ENV } from "../events/ipc-fanout";
import { logger } from "../log";

const log = logger.child({ module: "worker-child" });

/** The message a worker child sends its parent once its worker consumes the queue (lib/runs/worker-main.ts). */
export const WORKER_READY_MESSAGE = "phylactery-worker-ready";

/** First wait before forking a worker child again after it died, ms (doubles up to {@link MAX_RESTART_MS}). */
export const RESTART_MS = 500;
/** Longest wait between two forks of a worker child that keeps dying, ms. */
export const MAX_RESTART_MS = 30_000;
/** A child that lived this long before dying is restarted after {@link RESTART_MS} again (its backoff resets), ms. */
export const STABLE_MS = 30_000;
/** Deaths in a row, each before {@link STABLE_MS}, from which the parent logs a crash loop. */
export const CRASH_LOOP_DEATHS = 3;
/**
 * How long the web process waits, when it is told to stop, for its worker child to finish the
 * runs in progress before it SIGKILLs it (the runs then continue from their last checkpoint
 * at the next start, once their leases lapse), ms. Under a container's usual 10 s stop grace.
 */
export const STOP_GRACE_MS = 8_000;

/**
 * How much lower the worker child's scheduling priority is than the web process's (its nice
 * value is this much higher, at most 19): when the CPU is short, the kernel serves pages and
 * streams first and graph execution waits, never the other way round. On an idle CPU it
 * changes nothing.
 */
export const WORKER_NICE = 5;

/** What /api/health tells of the worker child (docs/operations.md "Health"). */
export interface WorkerChildStatus {
  /** True while a child runs and has said its worker consumes the queue. */
  up: boolean;
  /** Times the child was forked again after dying (0 for the first). */
  restarts: number;
}

/** Options of {@link WorkerChild}. */
export interface WorkerChildOptions {
  /** The project's directory (scripts/run-ts.mjs and lib/ under it). Default: the current directory. */
  cwd?: string;
  /** The child's environment (default: this process's), to which {@link WORKER_CHILD_ENV}=1 is added. */
  env?: NodeJS.ProcessEnv;
  /** The module the child runs (default lib/runs/worker-main.ts, as `npm run worker` does). */
  entry?: string;
  /** The Node binary (default: this process's). */
  execPath?: string;
  restartMs?: number;
  maxRestartMs?: number;
  stableMs?: number;
  /** Called with each child once forked, before its first message (the web process attaches it to its fan-out); returns a detach called when it exits. */
  onFork?: (child: ChildProcess) => () => void;
}

/**
 * The worker child of a web process on the embedded default with `RUN_IN=process`
 * (docs/durability.md#runs-are-jobs): a fork (a child process with an IPC channel) of lib/runs/worker-main.ts under
 * scripts/run-ts.mjs (what `npm run worker` runs), with an IPC channel that carries the
 * fan-out (lib/events/ipc-fanout.ts). It executes the runs, so that the web process's event
 * loop serves pages and streams only. When the child dies it is forked again after
 * {@link RESTART_MS}, doubling up to {@link MAX_RESTART_MS} while it keeps dying within
 * {@link STABLE_MS}; a crash loop is logged, never a hot loop. The child stops with its
 * parent: gracefully when the parent stops it ({@link WorkerChild.stop}), or on its own when
 * the IPC channel closes (the parent died).
 */
export class WorkerChild {
  private child: ChildProcess | null = null;
  private ready = false;
  private forks = 0;
  private quickDeaths = 0;
  private delay: number;
  private timer: NodeJS.Timeout | null = null;
  private stopping: Promise<void> | null = null;
  private readonly opts: Required<Omit<WorkerChildOptions, "onFork" | "env">> & Pick<WorkerChildOptions, "onFork" | "env">;

  constructor(opts: WorkerChildOptions = {}) {
    this.opts = { cwd: process.cwd(), entry: "lib/runs/worker-main.ts", execPath: process.execPath, restartMs: RESTART_MS, maxRestartMs: MAX_RESTART_MS, stableMs: STABLE_MS, ...opts };
    this.delay = this.opts.restartMs;
  }

  /** Forks the child (once; later calls do nothing). */
  start(): void {
    if (this.child || this.timer || this.stopping) return;
    this.spawn();
  }

  /** Whether the child is up, and how often it was restarted. */
  status(): WorkerChildStatus {
    return { up: this.ready && this.child !== null && this.child.exitCode === null && this.child.signalCode === null, restarts: Math.max(0, this.forks - 1) };
  }

  /** The running child's process id (tests, logs), or null. */
  pid(): number | null {
    return this.child?.pid ?? null;
  }

  /**
   * Stops the child and forks no other: SIGTERM (its worker takes no new job and finishes the
   * ones it runs), then SIGKILL after `graceMs` (ms) if it has not exited. Idempotent.
   */
  stop(graceMs: number = STOP_GRACE_MS): Promise<void> {
    this.stopping ??= (async () => {
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      const child = this.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      let killer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        killer = setTimeout(() => {
          log.warn({ pid: child.pid, graceMs }, "the worker child did not stop in time: killed (its runs continue at the next start)");
          child.kill("SIGKILL");
          resolve();
        }, graceMs);
      });
      await Promise.race([exited, late]);
      clearTimeout(killer);
      await exited;
    })();
    return this.stopping;
  }

  private spawn(): void {
    this.timer = null;
    const startedAt = Date.now();
    this.forks += 1;
    this.ready = false;
    // `fork` as spawn with an "ipc" stdio entry: the bundler resolves fork's module argument at
    // build time, and this one is a file of the project run from source. No inspector or
    // profiler flags of the web process: the child is a plain Node process.
    const child = spawn(this.opts.execPath, [path.join(this.opts.cwd, "scripts", "run-ts.mjs"), this.opts.entry], {
      cwd: this.opts.cwd,
      env: { ...(this.opts.env ?? process.env), [WORKER_CHILD_ENV]: "1" },
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.child = child;
    lowerPriority(child.pid);
    const detach = this.opts.onFork?.(child) ?? (() => undefined);
    child.on("message", (m) => {
      if ((m as { t?: unknown } | null)?.t === WORKER_READY_MESSAGE) {
        this.ready = true;
        log.info({ pid: child.pid, restarts: this.forks - 1 }, "the worker child executes runs");
      }
    });
    let gone = false;
    const onGone = (code: number | null, signal: NodeJS.Signals | null, err?: Error) => {
      if (gone) return;
      gone = true;
      detach();
      if (this.child === child) this.child = null;
      this.ready = false;
      if (this.stopping) return;
      const lived = Date.now() - startedAt;
      if (lived >= this.opts.stableMs) {
        this.delay = this.opts.restartMs;
        this.quickDeaths = 0;
      } else this.quickDeaths += 1;
      const wait = this.delay;
      this.delay = Math.min(this.delay * 2, this.opts.maxRestartMs);
      const fields = { err, code, signal, livedMs: lived, restartInMs: wait, deathsInARow: this.quickDeaths };
      if (this.quickDeaths >= CRASH_LOOP_DEATHS) log.error(fields, "the worker child keeps dying (a crash loop): runs wait until it stays up; restarting with backoff");
      else log.warn(fields, "the worker child died: restarting it (its runs continue from their last checkpoint once their leases lapse)");
      this.timer = setTimeout(() => this.spawn(), wait);
      this.timer.unref?.();
    };
    child.once("exit", (code, signal) => onGone(code, signal));
    child.once("error", (err) => {
      // A fork that failed never emits "exit"; one that ran may emit both.
      if (child.pid === undefined) onGone(null, null, err);
      else log.warn({ err, pid: child.pid }, "the worker child's channel failed");
    });
  }
}

/** Gives a process the priority {@link WORKER_NICE} below this one's; where the OS refuses, it keeps its own (logged). */
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, Math.min(19, getPriority() + WORKER_NICE));
  } catch (err) {
    log.warn({ err, pid }, "the worker child's priority could not be lowered: it competes with the web process for the CPU");
  }
}

const g = globalThis as { __phylacteryWorkerChild?: WorkerChild };

/**
 * Forks this web process's worker child once (`RUN_IN=process`), attached to the process's
 * IPC fan-out, and chains its graceful stop before Next.js's own on SIGTERM and SIGINT (the
 * server stops after the child, so no child outlives it). Kept on globalThis so that every
 * module copy of the process shares it.
 */
export function startWorkerChild(): WorkerChild {
  if (g.__phylacteryWorkerChild) return g.__phylacteryWorkerChild;
  // On SQLite the child's notifications cross its IPC channel; on PostgreSQL, LISTEN/NOTIFY carries them.
  const fan = ipcFanout();
  const wc = new WorkerChild(fan ? { onFork: (child) => fan.attach(child as unknown as Parameters<typeof fan.attach>[0]) } : {});
  g.__phylacteryWorkerChild = wc;
  stopBeforeExit(wc);
  wc.start();
  return wc;
}

/** The worker child's status, or null when this process forks none (`RUN_IN=web`, a worker, RUN_WORKERS=0). */
export function workerChildStatus(): WorkerChildStatus | null {
  return g.__phylacteryWorkerChild?.status() ?? null;
}

/**
 * On SIGTERM or SIGINT, stops the child first, then lets the listeners that were there
 * before (Next.js's server shutdown, which exits) run; with none, exits as Node would
 * (128 + the signal's number).
 */
function stopBeforeExit(wc: WorkerChild): void {
  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    const prior = process.listeners(signal);
    process.removeAllListeners(signal);
    let once = false;
    process.on(signal, () => {
      if (once) return;
      once = true;
      log.info({ signal }, "stopping: the worker child finishes its runs first");
      void wc.stop().finally(() => {
        if (prior.length === 0) process.exit(code);
        for (const l of prior) l(signal);
      });
    });
  }
}
