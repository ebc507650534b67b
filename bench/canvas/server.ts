import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createDb } from "../../lib/db/client";
import { createFlow } from "../../lib/db/flows";
import type { FlowDocument } from "../../lib/flow/schema";

/**
 * The app the canvas benchmark drives: a fresh SQLite file (migrated, seeded, holding the
 * generated flow) and `next start` on the built app, on 127.0.0.1.
 */

/** Ports the benchmark may bind (the first free one is used). */
const PORTS = [3204, 3205, 3206, 3207, 3208, 3209];

/** Runs a command in `root`, quiet unless it fails. @throws Error with its output on failure. */
function run(root: string, command: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(command, args, { cwd: root, env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`);
}

/**
 * Recreates `<root>/.data/bench-canvas.db` with `prisma migrate deploy`, seeds the demo
 * accounts with prisma/seed.ts and stores `doc` as a flow of the demo user.
 * @returns the database URL and the new flow's id.
 * @throws Error when a step fails or the demo account is missing after seeding.
 */
export async function prepareDatabase(root: string, doc: FlowDocument, demoEmail: string): Promise<{ url: string; flowId: string }> {
  const file = path.join(root, ".data", "bench-canvas.db");
  mkdirSync(path.dirname(file), { recursive: true });
  for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  const url = `file:${file}`;
  const env = { ...process.env, DATABASE_URL: url };
  run(root, "npx", ["prisma", "migrate", "deploy"], env);
  run(root, process.execPath, ["scripts/run-ts.mjs", "prisma/seed.ts"], env);
  const db = createDb(url);
  try {
    const user = await db.user.findUnique({ where: { email: demoEmail.toLowerCase() } });
    if (!user) throw new Error(`the seed did not create ${demoEmail}`);
    const flow = await createFlow(db, user.id, doc, { message: "Canvas benchmark" });
    return { url, flowId: flow.id };
  } finally {
    await db.$disconnect();
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

/** A running `next start`; `stop` ends it (and only it) and removes its temp directory. */
export interface AppServer {
  origin: string;
  pid: number;
  stop: () => Promise<void>;
  /** Synchronous last resort for `process.on("exit")`: SIGKILL if still running. */
  kill: () => void;
}

/** Sends `signal` to the server's process group (it was started detached, so the group is its own). */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Starts `next start -H 127.0.0.1` on the first free port of 3204-3209 with the given
 * database, a temporary WORKSPACES_DIR / SECRETS_DIR and a random AUTH_SECRET, and waits
 * for GET /api/health to answer 200.
 * @throws Error when the build is missing, no port is free, or the server does not get
 *   healthy within `timeoutMs` (its output is included).
 */
export async function startServer(root: string, databaseUrl: string, timeoutMs = 60_000): Promise<AppServer> {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("no build: run `npx next build` first");
  let port: number | undefined;
  for (const p of PORTS) {
    if (await portIsFree(p)) {
      port = p;
      break;
    }
  }
  if (port === undefined) throw new Error(`no free port among ${PORTS.join(", ")}`);

  const scratch = mkdtempSync(path.join(tmpdir(), "phylactery-bench-canvas-"));
  const child = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      DATABASE_URL: databaseUrl,
      WORKSPACES_DIR: path.join(scratch, "workspaces"),
      SECRETS_DIR: scratch,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
    },
  });
  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  if (child.pid === undefined) throw new Error("could not start next");
  const pid = child.pid;

  const stop = async () => {
    signalGroup(child, "SIGTERM");
    const timer = setTimeout(() => signalGroup(child, "SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
    rmSync(scratch, { recursive: true, force: true });
  };

  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`next start exited (${child.exitCode ?? child.signalCode})`);
      const ok = await fetch(`${origin}/api/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return { origin, pid, stop, kill: () => signalGroup(child, "SIGKILL") };
      if (Date.now() > deadline) throw new Error(`next start not healthy after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } catch (err) {
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}; server output:\n${log}`);
  }
}
