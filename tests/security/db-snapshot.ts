import { createHash } from "node:crypto";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";

/**
 * What a server holds, read behind its back: every row of its database (a SQLite file opened
 * read-only, or its PostgreSQL database on a connection of our own) and every file of its
 * thread workspaces, so that a test can prove an attack
 * changed nothing (docs/security.md "Threat model": after each attack, nothing outside
 * the attacker's workspace changed).
 */

/** Rows as canonical JSON lines by table, and files as "mode sha256" by relative path. */
export interface Snapshot {
  rows: Record<string, string[]>;
  files: Record<string, string>;
}

/** Tables that change for reasons no attack controls (sign-in bookkeeping, migrations). */
const IGNORED_TABLES = new Set(["_prisma_migrations", "SignInThrottle"]);

const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");

function rowLine(row: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[k] = Buffer.isBuffer(v) ? `sha256:${sha256(v)}` : typeof v === "bigint" ? String(v) : v instanceof Date ? v.toISOString() : v;
  return JSON.stringify(out);
}

/** Reads rows with `$1`-style parameters; `close` ends the connection. */
interface Reader {
  all(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  tables(): Promise<string[]>;
  close(): Promise<void>;
}

/** A read-only reader of a SQLite file or a PostgreSQL database, by URL. */
async function openReader(dbUrl: string): Promise<Reader> {
  if (dbUrl.startsWith("file:")) {
    const db = new Database(dbUrl.slice("file:".length), { readonly: true, fileMustExist: true });
    const all = async (sql: string, params: unknown[] = []) => db.prepare(sql.replace(/\$\d+/g, "?")).all(...params) as Record<string, unknown>[];
    return {
      all,
      tables: async () => (await all(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)).map((r) => String(r.name)),
      close: async () => void db.close(),
    };
  }
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  const all = async (sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows as Record<string, unknown>[];
  return {
    all,
    tables: async () => (await all(`SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)).map((r) => String(r.name)),
    close: () => client.end(),
  };
}

/** The ids that make a row part of a workspace: the workspace, its flows and their threads. */
async function scopeIds(db: Reader, workspaceId: string): Promise<Set<string>> {
  const flows = (await db.all(`SELECT "id" FROM "Flow" WHERE "workspaceId" = $1`, [workspaceId])).map((r) => String(r.id));
  const threads = flows.length ? (await db.all(`SELECT "id" FROM "Thread" WHERE "flowId" IN (${flows.map((_, i) => `$${i + 1}`).join(",")})`, flows)).map((r) => String(r.id)) : [];
  return new Set([workspaceId, ...flows, ...threads]);
}

function walk(root: string, rel = ""): [string, string][] {
  const dir = path.join(root, rel);
  const out: [string, string][] = [];
  for (const name of readdirSync(dir).sort()) {
    const relPath = path.join(rel, name);
    const st = lstatSync(path.join(root, relPath));
    const mode = (st.mode & 0o7777).toString(8);
    if (st.isDirectory()) out.push([`${relPath}/`, `dir ${mode}`], ...walk(root, relPath));
    else out.push([relPath, st.isFile() ? `${mode} ${sha256(readFileSync(path.join(root, relPath)))}` : `other ${mode}`]);
  }
  return out;
}

/**
 * Reads a snapshot of a server's database and workspaces.
 * @param dbUrl the server's DATABASE_URL (`file:` or `postgresql://`).
 * @param workspacesDir the server's WORKSPACES_DIR (one directory per thread id).
 * @param workspaceId when given, only rows that name this workspace, one of its flows or
 *   one of their threads in some column, and only those threads' directories; else all.
 */
export async function snapshot(dbUrl: string, workspacesDir: string, workspaceId?: string): Promise<Snapshot> {
  const db = await openReader(dbUrl);
  try {
    const scope = workspaceId ? await scopeIds(db, workspaceId) : null;
    const tables = (await db.tables()).filter((t) => !IGNORED_TABLES.has(t));
    const rows: Record<string, string[]> = {};
    for (const table of tables) {
      const all = await db.all(`SELECT * FROM "${table}"`);
      const kept = scope ? all.filter((r) => Object.values(r).some((v) => typeof v === "string" && scope.has(v))) : all;
      rows[table] = kept.map(rowLine).sort();
    }
    const files = existsSync(workspacesDir) ? walk(workspacesDir) : [];
    const keptFiles = scope ? files.filter(([rel]) => scope.has(rel.split(path.sep)[0]?.replace(/\/$/, "") ?? "")) : files;
    return { rows, files: Object.fromEntries(keptFiles) };
  } finally {
    await db.close();
  }
}

const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…` : s);

/** What differs between two snapshots, one line per row or file added, removed or changed; empty when equal. */
export function diffSnapshots(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const table of new Set([...Object.keys(before.rows), ...Object.keys(after.rows)])) {
    const a = new Set(before.rows[table] ?? []);
    const b = new Set(after.rows[table] ?? []);
    for (const r of a) if (!b.has(r)) out.push(`${table} - ${clip(r)}`);
    for (const r of b) if (!a.has(r)) out.push(`${table} + ${clip(r)}`);
  }
  for (const f of new Set([...Object.keys(before.files), ...Object.keys(after.files)])) {
    if (before.files[f] !== after.files[f]) out.push(`file ${f}: ${before.files[f] ?? "absent"} -> ${after.files[f] ?? "absent"}`);
  }
  return out;
}
