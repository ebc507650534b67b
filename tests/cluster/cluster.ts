import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations } from "../../lib/db/test-db";
import { createPgTestDatabase } from "../../lib/db/test-pg";
import { freePort, type SeededUser, seedUsers, waitHealthy } from "../http/server";

/**
 * Real processes on one database, for durability tests and benches (docs/durability.md):
 * N web instances (the built app under `next start`) and M run workers (`npm run worker`),
 * each of which can be killed with SIGKILL and started again. Two shapes:
 * - cluster: PostgreSQL, web instances with RUN_WORKERS=0 (they accept and stream runs),
 *   separate worker processes executing them;
 * - embedded: one web instance on a SQLite file executing runs in process (RUN_WORKERS=4),
 *   the default deployment.
 */

/** Lines of output kept per process (the tail is what explains a failure). */
const LOG_LINES = 400;

/** One process of the cluster, which may be killed and started again. */
export interface ClusterProcess {
  /** "web-0", "worker-1", ... */
  readonly name: string;
  /** The web instance's base URL (http://127.0.0.1:PORT); null for a worker. */
  readonly url: string | null;
  /** The current process id; null when not running. */
  pid(): number | null;
  alive(): boolean;
  /** How many times it was started. */
  starts(): number;
  /** Starts it (again) and waits until it is ready: healthy (web) or consuming runs (worker). */
  start(): Promise<void>;
  /** SIGKILL (a crash: no graceful stop), and waits for the exit. No-op when not running. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful stop), and waits for the exit. */
  stop(): Promise<void>;
  /** The last output lines of the current and earlier lives. */
  output(): string;
}

/** Options of {@link startCluster}. */
export interface ClusterOptions {
  /** Web instances to start. */
  webs: number;
  /** Worker processes (`npm run worker`) to start. */
  workers: number;
  /**
   * The database: PostgreSQL (a fresh database on the server of `pgAdminUrl`, default
   * TEST_DATABASE_URL) or a SQLite file in the cluster's directory.
   */
  database: "postgresql" | "sqlite";
  /** Admin URL of the PostgreSQL server (default: TEST_DATABASE_URL). */
  pgAdminUrl?: string;
  /** RUN_WORKERS of the web instances: 0 (default) in a cluster, e.g. 4 embedded. */
  webRunWorkers?: number;
  /** RUN_WORKERS of each worker process (default 4). */
  workerRunWorkers?: number;
  /** Extra environment of every process (e.g. RUN_LEASE_TTL_MS, OUTBOUND_ALLOW_PRIVATE). */
  env?: Record<string, string>;
  /** Seed the four test users (default true; tests/http/server.ts seedUsers). */
  seed?: boolean;
  /** Node options of the web instances placed before the script (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
  webNodeArgs?: string[];
}

/** A started cluster. */
export interface Cluster {
  webs: ClusterProcess[];
  workers: ClusterProcess[];
  /** `file:` or `postgresql://` URL of the shared database. */
  dbUrl: string;
  database: "postgresql" | "sqlite";
  dir: string;
  workspacesDir: string;
  /** alice, bob, carol (approver in alice's workspace), victor (viewer); empty when not seeded. */
  users: SeededUser[];
  /** Kills every process, removes the database and the directory. */
  stop(): Promise<void>;
}

/**
 * Starts a cluster: a fresh migrated database (seeded with the test users), then the web
 * instances and workers, in parallel, each ready before this resolves. Every process shares
 * the database, the workspaces directory and one approval secret (a challenge signed on one
 * instance is checked on another).
 * @throws Error when the app is not built (`npx next build`), PostgreSQL is asked for without
 *   an admin URL, or a process does not become ready (its output is in the message).
 */
export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  if (opts.webs > 0 && !existsSync(".next/BUILD_ID")) throw new Error("cluster tests serve the built app: run `npx next build` first (scripts/test.sh does).");
  const dir = mkdtempSync(path.join(tmpdir(), "phylactery-cluster-"));
  let dbUrl: string;
  let drop: () => Promise<void>;
  if (opts.database === "postgresql") {
    const admin = opts.pgAdminUrl ?? process.env.TEST_DATABASE_URL;
    if (!admin) throw new Error("a PostgreSQL cluster needs TEST_DATABASE_URL (an admin URL; scripts/pg-server.sh starts a server)");
    const pg = await createPgTestDatabase(admin);
    dbUrl = pg.url;
    drop = pg.drop;
  } else {
    const file = path.join(dir, "app.db");
    applyMigrations(file);
    dbUrl = `file:${file}`;
    drop = async () => undefined;
  }
  const workspacesDir = path.join(dir, "workspaces");
  mkdirSync(workspacesDir);
  const users = opts.seed === false ? [] : await seedUsers(dbUrl, workspacesDir);
  const base: Record<string, string> = {
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    LOG_LEVEL: "warn",
    DATABASE_URL: dbUrl,
    WORKSPACES_DIR: workspacesDir,
    SECRETS_DIR: dir,
    APPROVAL_SECRET: randomBytes(32).toString("hex"),
    AUTH_SECRET: randomBytes(32).toString("hex"),
    ...opts.env,
  };
  const webs: ClusterProcess[] = [];
  for (let i = 0; i < opts.webs; i++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    webs.push(
      managed(
        `web-${i}`,
        url,
        [...(opts.webNodeArgs ?? []), "node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"],
        { ...base, RUN_WORKERS: String(opts.webRunWorkers ?? 0) },
        (proc, log) => waitHealthy(url, proc, log),
      ),
    );
  }
  const workers: ClusterProcess[] = [];
  for (let i = 0; i < opts.workers; i++) {
    workers.push(managed(`worker-${i}`, null, ["scripts/run-ts.mjs", "lib/runs/worker-main.ts"], { ...base, RUN_WORKERS: String(opts.workerRunWorkers ?? 4) }, waitWorkerReady));
  }
  const all = [...webs, ...workers];
  const stop = async () => {
    await Promise.all(all.map((p) => p.kill()));
    await drop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await Promise.all(all.map((p) => p.start()));
  } catch (err) {
    await stop();
    throw err;
  }
  return { webs, workers, dbUrl, database: opts.database, dir, workspacesDir, users, stop };
}

/** A worker is ready when it says it is executing runs (lib/runs/worker-main.ts). */
async function waitWorkerReady(proc: ChildProcess, log: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`worker exited (${proc.exitCode ?? proc.signalCode}):\n${log.join("")}`);
    if (log.some((l) => l.includes("is executing runs"))) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`worker did not start:\n${log.join("")}`);
}

function managed(name: string, url: string | null, args: string[], env: Record<string, string>, ready: (proc: ChildProcess, log: string[]) => Promise<void>): ClusterProcess {
  let proc: ChildProcess | null = null;
  let starts = 0;
  const history: string[] = [];
  const running = () => proc !== null && proc.exitCode === null && proc.signalCode === null;
  const signal = async (sig: NodeJS.Signals) => {
    const p = proc;
    if (!p || !running()) return;
    const exited = new Promise((r) => p.once("exit", r));
    p.kill(sig);
    await exited;
  };
  return {
    name,
    url,
    pid: () => (running() ? (proc?.pid ?? null) : null),
    alive: running,
    starts: () => starts,
    async start() {
      if (running()) return;
      starts += 1;
      const log: string[] = [];
      let readied = false;
      history.push(`--- ${name} start ${starts}\n`);
      const p = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
      proc = p;
      const keep = (d: unknown) => {
        const text = String(d);
        if (!readied) log.push(text);
        history.push(text);
        if (history.length > LOG_LINES) history.splice(0, history.length - LOG_LINES);
      };
      p.stdout?.on("data", keep);
      p.stderr?.on("data", keep);
      await ready(p, log);
      // Readiness seen: keep only the bounded history from here on.
      readied = true;
      log.length = 0;
    },
    kill: () => signal("SIGKILL"),
    stop: () => signal("SIGTERM"),
    output: () => history.join(""),
  };
}
