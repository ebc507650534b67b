import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { testDialect } from "../../lib/db/test-db";
import { pagesContaining, rowsContaining } from "../../lib/memory/test-fixtures";
import { signIn } from "../http/client";
import { startRun } from "../http/runs";
import { startServer, type TestServer } from "../http/server";

/**
 * Secrets at rest (docs/security.md "Secrets at rest"), seen as another local account on
 * the server's host would see them: the database file and its WAL, the secret keys and
 * the tenants' workspace folders are the server user's alone, and the database holds no
 * live approval token that a copy of it could replay.
 */
describe("another account on the host cannot read the server's data", () => {
  let server: TestServer;
  let token: string;
  let threadId: string;

  beforeAll(async () => {
    server = await startServer();
    const alice = server.users[0];
    if (!alice) throw new Error("no alice");
    const c = await signIn(server.url, alice.email, alice.password);
    const run = await startRun(c, alice.flowId);
    token = run.approval.token;
    threadId = run.threadId;
  }, 120_000);
  afterAll(async () => server?.stop());

  const mode = (p: string) => statSync(p).mode & 0o777;
  const dbFile = () => server.dbUrl.slice("file:".length);
  // File modes are about the SQLite file the server owns; a PostgreSQL server's files belong
  // to the database server, which keeps its data directory owner-only itself.
  const onSqlite = testDialect() === "sqlite";

  it.runIf(onSqlite)("the SQLite file, created world-readable before the server started, is owner-only once it runs", () => {
    expect(mode(dbFile()).toString(8)).toBe("600");
  });

  it.runIf(onSqlite)("the WAL and shared-memory files are owner-only", () => {
    for (const suffix of ["-wal", "-shm"]) {
      const file = `${dbFile()}${suffix}`;
      expect(mode(file).toString(8), file).toBe("600");
    }
  });

  it("the approval and session keys are owner-only files", () => {
    const keys = readdirSync(server.dir).filter((f) => f.endsWith(".key"));
    expect(keys).toEqual(expect.arrayContaining(["approval.key", "auth.key"]));
    for (const k of keys) expect(mode(path.join(server.dir, k)).toString(8), k).toBe("600");
  });

  it("the workspaces folder, a thread's workspace, the workspace library and their files are owner-only", () => {
    expect(mode(server.workspacesDir).toString(8)).toBe("700");
    const ws = path.join(server.workspacesDir, threadId);
    expect(mode(ws).toString(8)).toBe("700");
    // A new thread's workspace starts empty; the files its run reads are the workspace
    // library's (docs/library.md), which the seed filled: each folder 700, each file 600.
    const library = path.join(server.workspacesDir, ".library");
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(path.join(dir, f)).isDirectory() ? [path.join(dir, f), ...walk(path.join(dir, f))] : [path.join(dir, f)]));
    const entries = [library, ...walk(library), ...walk(ws)];
    expect(entries.filter((p) => statSync(p).isFile()).length).toBeGreaterThan(0);
    for (const p of entries) expect(mode(p).toString(8), p).toBe(statSync(p).isDirectory() ? "700" : "600");
  });

  it.runIf(onSqlite)("a copy of the database (file and WAL) holds no pending approval's token", () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const suffix of ["", "-wal"]) {
      const bytes = readFileSync(`${dbFile()}${suffix}`);
      expect(bytes.includes(Buffer.from(token, "utf8")), `token found in app.db${suffix}`).toBe(false);
    }
  });

  it.runIf(!onSqlite)("no row and no stored page of the PostgreSQL database holds a pending approval's token", async () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const db = createDb(server.dbUrl);
    try {
      expect(await rowsContaining(db, threadId)).not.toEqual([]);
      expect(await rowsContaining(db, token)).toEqual([]);
      expect(await pagesContaining(db, token)).toEqual([]);
    } finally {
      await db.$disconnect();
    }
  });
});
