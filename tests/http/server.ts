import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import bcrypt from "bcryptjs";
import { createDb } from "../../lib/db/client";
import { createFlow } from "../../lib/db/flows";
import { createTestDatabase, type TestDatabase } from "../../lib/db/test-db";
import { libraryAuditLog } from "../../lib/library/audit";
import { seedDemoLibrary } from "../../lib/library/demo-library";
import { workspaceAssistant } from "../../templates/workspace-assistant";

/**
 * A real Phylactery server for HTTP integration tests: the built app (`next build` first)
 * served by `next start` on 127.0.0.1, on its own migrated database (a SQLite file in its
 * directory, or a fresh PostgreSQL database when `TEST_DATABASE_URL` is set; lib/db/test-db.ts),
 * workspaces and secrets directory, so tests see exactly what a browser would.
 */
export interface TestServer {
  url: string;
  dir: string;
  /** `file:` or `postgresql://` URL of the server's database. */
  dbUrl: string;
  /** Which database the server runs on; `database.file` is the SQLite file (null on PostgreSQL). */
  database: Omit<TestDatabase, "drop">;
  workspacesDir: string;
  users: SeededUser[];
  /** Everything the server process wrote to stdout and stderr, in order (its log). */
  log: string[];
  /** The server process's id (its worker child's parent with RUN_IN=process). */
  pid(): number | undefined;
  /** Stops the process with SIGKILL (a crash), then starts a new one on the same files. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (the OS picks it; another process may take it before use). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

/**
 * Waits until `GET {url}/api/health` answers 200.
 * @throws Error with the process's output when it exits first or 60 s pass.
 */
export async function waitHealthy(url: string, proc: ChildProcess, log: string[]): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}):\n${log.join("")}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server did not become healthy:\n${log.join("")}`);
}

/** A seeded user: sign-in credentials and the flow they can run (alice's for carol and victor). */
export type SeededUser = { id: string; email: string; password: string; flowId: string };

/**
 * Seeds the four test users on a migrated database: alice and bob, each owning a workspace
 * with the Workspace assistant template, and carol (approver) and victor (viewer) in alice's.
 * Passwords are `pw-<email>`. Given the WORKSPACES_DIR, alice's and bob's workspaces get the
 * demo library (notes.md, release-notes.md, README.md) as `npm run db:seed` gives the demo
 * workspace (docs/library.md "The demo workspace's library").
 * @returns the users in that order.
 */
export async function seedUsers(dbUrl: string, workspacesDir?: string): Promise<SeededUser[]> {
  const db = createDb(dbUrl);
  const users: SeededUser[] = [];
  for (const email of ["alice@test.dev", "bob@test.dev"]) {
    const password = `pw-${email}`;
    const u = await db.user.create({ data: { email, passwordHash: await bcrypt.hash(password, 4) } });
    const flow = await createFlow(db, u.id, workspaceAssistant);
    if (workspacesDir) await seedDemoLibrary(workspacesDir, flow.workspaceId, libraryAuditLog(db, flow.workspaceId));
    users.push({ id: u.id, email, password, flowId: flow.id });
  }
  // Alice's workspace also has an approver (carol) and a viewer (victor); bob has his own.
  const alice = users[0];
  const ws = alice ? (await db.flow.findUniqueOrThrow({ where: { id: alice.flowId } })).workspaceId : "";
  for (const [email, role] of [
    ["carol@test.dev", "approver"],
    ["victor@test.dev", "viewer"],
  ] as const) {
    const password = `pw-${email}`;
    const u = await db.user.create({ data: { email, passwordHash: await bcrypt.hash(password, 4), memberships: { create: { workspaceId: ws, role } } } });
    users.push({ id: u.id, email, password, flowId: alice?.flowId ?? "" });
  }
  await db.$disconnect();
  return users;
}

/**
 * Starts a server with four users: alice and bob, each owning a workspace with the
 * Workspace assistant template, and carol (approver) and victor (viewer) in alice's.
 * @param env extra environment (e.g. APPROVAL_TTL_MS).
 */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  if (!existsSync(".next/BUILD_ID")) throw new Error("HTTP integration tests serve the built app: run `npx next build` first (scripts/test.sh does).");
  const dir = mkdtempSync(path.join(tmpdir(), "phylactery-http-"));
  const { drop, ...database } = await createTestDatabase({ dir, fileName: "app.db" });
  const dbUrl = database.url;
  const workspacesDir = path.join(dir, "workspaces");
  mkdirSync(workspacesDir);
  const users = await seedUsers(dbUrl, workspacesDir);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let proc: ChildProcess;
  const log: string[] = [];
  const launch = async () => {
    proc = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
      env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", DATABASE_URL: dbUrl, WORKSPACES_DIR: workspacesDir, SECRETS_DIR: dir, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc.stdout?.on("data", (d) => log.push(String(d)));
    proc.stderr?.on("data", (d) => log.push(String(d)));
    await waitHealthy(url, proc, log);
  };
  const kill = async () => {
    if (proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once("exit", r));
    proc.kill("SIGKILL");
    await exited;
  };
  await launch();
  return {
    url,
    dir,
    dbUrl,
    database,
    workspacesDir,
    users,
    log,
    pid: () => proc.pid,
    restart: async () => {
      await kill();
      await launch();
    },
    stop: async () => {
      await kill();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
