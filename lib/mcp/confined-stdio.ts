import "server-only";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * An MCP stdio client transport that confines its child (docs/security.md "Stdio MCP
 * servers"): argv runs as given (no shell, no PATH search of the tenant's choosing) in a
 * new process group, with only PATH=/usr/bin:/bin, HOME and TMPDIR (its own fresh 0700
 * directory, also its cwd, removed when it exits), LANG and the secrets it is given. The
 * whole group is killed when a request waits longer than `timeoutMs`, when one stdout line
 * exceeds `maxMessageBytes` or all stdout exceeds `maxOutputBytes`, on close, and when this
 * process exits. Stderr is kept (its last `maxStderrBytes`) for the server log only.
 */

/** Limits of one child: ms and bytes. */
export interface StdioLimits {
  timeoutMs: number;
  maxMessageBytes: number;
  maxOutputBytes: number;
  maxStderrBytes?: number;
}

/** Why the transport killed its child: a request took too long, a line or all output was too big. */
export type StopReason = "timeout" | "message_too_long" | "output_too_large";

/** What the child did, for describing a failure and for the log. */
export interface StdioOutcome {
  stopReason: StopReason | null;
  exitCode: number | null;
  signal: string | null;
  /** The tail of its stderr (log only: never shown to a tenant). */
  stderr: string;
}

const live = new Set<ConfinedStdioTransport>();
const g = globalThis as { __phylacteryStdioExitHook?: Set<ConfinedStdioTransport> };
if (!g.__phylacteryStdioExitHook) {
  g.__phylacteryStdioExitHook = live;
  // Only synchronous work runs on exit: kill every child's group and remove its directory.
  process.once("exit", () => {
    for (const t of g.__phylacteryStdioExitHook ?? []) t.killNow();
  });
}
const liveSet = g.__phylacteryStdioExitHook;

/** Sends SIGKILL to the process group led by `pid`; no-op when it is gone. */
function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** See the module comment. `argv[0]` must be an absolute path (checked by the catalogue). */
export class ConfinedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcessWithoutNullStreams | undefined;
  private dir: string | undefined;
  private readonly buffer: ReadBuffer;
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private lineBytes = 0;
  private outBytes = 0;
  private closed = false;
  private readonly result: StdioOutcome = { stopReason: null, exitCode: null, signal: null, stderr: "" };

  constructor(
    private readonly argv: readonly string[],
    private readonly secrets: Readonly<Record<string, string>>,
    private readonly limits: StdioLimits,
  ) {
    this.buffer = new ReadBuffer({ maxBufferSize: limits.maxMessageBytes + 1024 * 1024 });
  }

  /** What happened to the child so far. */
  get outcome(): StdioOutcome {
    return { ...this.result };
  }

  /** The child's pid (its process group id), once started. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Starts the child. @throws the spawn error (e.g. code ENOENT, EACCES) when it cannot start. */
  start(): Promise<void> {
    if (this.child || this.closed) return Promise.reject(new Error("ConfinedStdioTransport already started"));
    const [program, ...args] = this.argv;
    if (!program || !path.isAbsolute(program)) return Promise.reject(new Error("argv[0] must be an absolute path"));
    const dir = mkdtempSync(path.join(tmpdir(), "phylactery-mcp-"));
    chmodSync(dir, 0o700);
    this.dir = dir;
    const env: Record<string, string> = { ...this.secrets, PATH: "/usr/bin:/bin", HOME: dir, TMPDIR: dir, LANG: "C.UTF-8" };
    const child = spawn(program, args, { cwd: dir, env: env as NodeJS.ProcessEnv, stdio: "pipe", shell: false, detached: true, windowsHide: true });
    this.child = child;
    liveSet.add(this);
    return new Promise((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", (err) => {
        reject(err);
        this.finish();
      });
      child.once("exit", (code, signal) => {
        this.result.exitCode = code;
        this.result.signal = signal;
        // Descendants left in the group would hold the pipes open: end them too.
        killGroup(child.pid);
      });
      child.once("close", () => this.finish());
      child.stdin.on("error", (err) => this.onerror?.(err));
      child.stdout.on("data", (chunk: Buffer) => this.read(chunk));
      child.stderr.on("data", (chunk: Buffer) => {
        const max = this.limits.maxStderrBytes ?? 4096;
        this.result.stderr = (this.result.stderr + chunk.toString("utf8")).slice(-max);
      });
    });
  }

  private read(chunk: Buffer): void {
    if (this.result.stopReason) return;
    this.outBytes += chunk.length;
    if (this.outBytes > this.limits.maxOutputBytes) {
      this.stop("output_too_large");
      return;
    }
    let from = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, from)) {
      if (this.lineBytes + (nl - from) > this.limits.maxMessageBytes) {
        this.stop("message_too_long");
        return;
      }
      this.lineBytes = 0;
      from = nl + 1;
    }
    this.lineBytes += chunk.length - from;
    if (this.lineBytes > this.limits.maxMessageBytes) {
      this.stop("message_too_long");
      return;
    }
    this.buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (err) {
        this.onerror?.(err instanceof Error ? err : new Error(String(err)));
        continue;
      }
      if (!message) break;
      if ("id" in message && !("method" in message) && (typeof message.id === "string" || typeof message.id === "number")) this.settle(message.id);
      this.onmessage?.(message);
    }
  }

  private settle(id: string | number): void {
    const key = `${typeof id}:${id}`;
    const timer = this.pending.get(key);
    if (timer) clearTimeout(timer);
    this.pending.delete(key);
  }

  /** Kills the group at once for a broken limit; the close that follows reports it. */
  private stop(reason: StopReason): void {
    this.result.stopReason ??= reason;
    this.onerror?.(new Error(`stdio MCP server stopped: ${reason}`));
    killGroup(this.child?.pid);
  }

  /** Writes one message; a request starts its answer timer, a cancellation ends it. */
  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (!child || this.closed || child.exitCode !== null || child.signalCode !== null) return Promise.reject(new Error("Not connected"));
    if ("method" in message && "id" in message) {
      const id = message.id;
      const timer = setTimeout(() => this.stop("timeout"), this.limits.timeoutMs);
      timer.unref();
      this.pending.set(`${typeof id}:${id}`, timer);
    } else if ("method" in message && message.method === "notifications/cancelled") {
      const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof id === "string" || typeof id === "number") this.settle(id);
    }
    return new Promise((resolve) => {
      if (child.stdin.write(serializeMessage(message))) resolve();
      else child.stdin.once("drain", resolve);
    });
  }

  /** Ends stdin, gives the child 2 s to exit, then kills its whole group. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.closed) return;
    const gone = new Promise<void>((resolve) => {
      if (this.closed) resolve();
      else child.once("close", () => resolve());
    });
    try {
      child.stdin.end();
    } catch {
      // Already closed.
    }
    const timer = setTimeout(() => killGroup(child.pid), 2000);
    timer.unref();
    await gone;
    clearTimeout(timer);
  }

  /** Kills the group and removes the directory synchronously (process exit). */
  killNow(): void {
    killGroup(this.child?.pid);
    this.removeDir();
  }

  private removeDir(): void {
    if (!this.dir) return;
    try {
      rmSync(this.dir, { recursive: true, force: true });
    } catch {
      // Left for the OS's temp cleaner.
    }
    this.dir = undefined;
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.pending.values()) clearTimeout(timer);
    this.pending.clear();
    killGroup(this.child?.pid);
    this.buffer.clear();
    this.removeDir();
    liveSet.delete(this);
    this.onclose?.();
  }
}
