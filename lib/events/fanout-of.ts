import { env } from "../env";
import type { Fanout } from "./fanout";
import { InProcessFanout } from "./in-process-fanout";
import { IpcFanout, type IpcPeer, WORKER_CHILD_ENV } from "./ipc-fanout";
import { PgFanout } from "./pg-fanout";

/** Where a SQLite process's peers are (docs/architecture.md#live-streams). */
export interface FanoutPeers {
  /** This process is the worker child of a web process (lib/runs/worker-child.ts): its IPC channel to it. */
  parent?: IpcPeer;
  /** This process forks a worker child (`RUN_IN=process`): it attaches the child once forked. */
  forksWorker?: boolean;
}

/**
 * A new fan-out for a database URL (lib/events/fanout.ts): PostgreSQL's LISTEN/NOTIFY for a
 * `postgresql://` or `postgres://` URL. On SQLite, which has no notifications between
 * processes: the IPC channel between the web process and its worker child when there is one
 * (lib/events/ipc-fanout.ts; `RUN_IN=process`, docs/configuration.md), else the in-process one
 * (followers of a run on another process poll).
 */
export function fanoutFor(databaseUrl: string, peers: FanoutPeers = {}): Fanout {
  if (/^postgres(ql)?:\/\//i.test(databaseUrl)) return new PgFanout({ connectionString: databaseUrl });
  if (peers.parent) return new IpcFanout([peers.parent]);
  if (peers.forksWorker) return new IpcFanout();
  return new InProcessFanout();
}

/** This process's SQLite peers: its parent when it is a worker child, or the child it forks. */
function processPeers(): FanoutPeers {
  if (process.env[WORKER_CHILD_ENV] === "1" && typeof process.send === "function") return { parent: process as unknown as IpcPeer };
  return { forksWorker: env().RUN_IN === "process" && env().RUN_WORKERS > 0 };
}

const g = globalThis as { __phylacteryFanout?: Fanout };

/**
 * The process-wide fan-out for `DATABASE_URL` (kept on globalThis so that Next.js's module
 * copies share one, hence one PostgreSQL connection per process).
 */
export function fanout(): Fanout {
  g.__phylacteryFanout ??= fanoutFor(env().DATABASE_URL, processPeers());
  return g.__phylacteryFanout;
}

/**
 * The process-wide fan-out when it is the IPC one (the web process that forks its worker child
 * attaches it there), else null. Told by shape, not `instanceof`: Next.js's module copies each
 * have their own class.
 */
export function ipcFanout(): IpcFanout | null {
  const f = fanout();
  return typeof (f as Partial<IpcFanout>).attach === "function" ? (f as IpcFanout) : null;
}
