import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Db, dialectOf } from "../db/client";
import { createFlow } from "../db/flows";
import { createTestDb, type TestDb } from "../db/test-db";
import { createThread } from "../db/threads";
import { workspaceAssistant } from "../../templates/workspace-assistant";

/**
 * Test fixtures of the memory service (not a test file): two tenants on a real database,
 * a local server that speaks the OpenAI `/embeddings` protocol, and a scanner that looks for
 * a string in every row of every table.
 */

/** One user with their own workspace and a flow in it. */
export interface Tenant {
  userId: string;
  workspaceId: string;
  flowId: string;
  newThread(task?: string): Promise<string>;
}

/** A migrated database with two tenants (A and B). */
export interface MemoryFixture {
  t: TestDb;
  a: Tenant;
  b: Tenant;
  cleanup(): Promise<void>;
}

let seq = 0;

/** Creates a user with a workspace and the Workspace assistant flow in it. */
export async function tenant(t: TestDb, name: string): Promise<Tenant> {
  seq += 1;
  const user = await t.db.user.create({ data: { email: `${name}-${seq}-${Date.now()}@test.dev`, name } });
  const flow = await createFlow(t.db, user.id, workspaceAssistant);
  return {
    userId: user.id,
    workspaceId: flow.workspaceId,
    flowId: flow.id,
    newThread: async (task = "Read notes.md") => (await createThread(t.db, user.id, flow.id, task)).id,
  };
}

/** Builds a {@link MemoryFixture}. */
export async function memoryFixture(): Promise<MemoryFixture> {
  const t = await createTestDb();
  const a = await tenant(t, "alice");
  const b = await tenant(t, "bob");
  return { t, a, b, cleanup: () => t.cleanup() };
}

/**
 * Words that mean the same thing share one dimension of the fake embedding space, so a
 * paraphrase lands close to the original; every other word gets a hashed dimension.
 */
const SYNONYMS: string[][] = [
  ["invoice", "invoices", "billing", "bill", "bills"],
  ["paid", "pay", "pays", "payment", "payments", "settled"],
  ["friday", "fridays", "weekly", "week"],
  ["database", "databases", "datastore", "db"],
  ["car", "cars", "automobile", "vehicle"],
];
const STOP = new Set("a an and are as at be by do does for from go goes how in is it of on our the to what when where which who with".split(" "));
const HASHED = 64;

/** The deterministic vector of a text: synonym-aware bag of words, L2-normalised. */
export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(SYNONYMS.length + HASHED).fill(0);
  for (const w of text.toLowerCase().split(/[^a-z0-9]+/)) {
    if (!w || STOP.has(w)) continue;
    const group = SYNONYMS.findIndex((g) => g.includes(w));
    if (group >= 0) v[group] = (v[group] ?? 0) + 1;
    else {
      let h = 0;
      for (const ch of w) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
      const i = SYNONYMS.length + (h % HASHED);
      v[i] = (v[i] ?? 0) + 1;
    }
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

/** A local OpenAI-compatible embeddings server (POST /v1/embeddings) on 127.0.0.1. */
export interface EmbeddingServer {
  /** Base URL to give the provider, ending in /v1. */
  baseURL: string;
  /** Every input text received, in order. */
  received: string[];
  close(): Promise<void>;
}

/** Starts an {@link EmbeddingServer} that answers with {@link fakeEmbedding} vectors. */
export async function startEmbeddingServer(): Promise<EmbeddingServer> {
  const received: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += String(c);
    });
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/embeddings") {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const parsed = JSON.parse(body) as { model: string; input: string | string[] };
      const inputs = Array.isArray(parsed.input) ? parsed.input : [parsed.input];
      received.push(...inputs);
      const data = inputs.map((text, index) => ({ object: "embedding", index, embedding: fakeEmbedding(text) }));
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ object: "list", model: parsed.model, data, usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Every (table, column) of the database whose value contains `needle`: each table of the
 * database, every column of every row, blobs decoded as UTF-8. SQLite and PostgreSQL alike.
 */
export async function rowsContaining(db: Db, needle: string): Promise<string[]> {
  const tables =
    dialectOf(db) === "sqlite"
      ? await db.$queryRawUnsafe<{ name: string }[]>("SELECT name FROM sqlite_master WHERE type = 'table'")
      : await db.$queryRawUnsafe<{ name: string }[]>("SELECT table_name::text AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'");
  const hits: string[] = [];
  for (const { name } of tables) {
    for (const row of await db.$queryRawUnsafe<Record<string, unknown>[]>(`SELECT * FROM "${name.replace(/"/g, '""')}"`)) {
      for (const [col, value] of Object.entries(row)) {
        const text = value instanceof Uint8Array ? Buffer.from(value).toString("utf8") : String(value);
        if (text.includes(needle)) hits.push(`${name}.${col}`);
      }
    }
  }
  return [...new Set(hits)];
}

/**
 * PostgreSQL's counterpart of scanning the SQLite file's bytes: the relations (tables, their
 * TOAST tables and every index of both) of the current schema whose raw pages, as the server
 * holds them now, contain `needle`'s UTF-8 bytes (pageinspect's get_raw_page; the test
 * server's admin user may create the extension).
 */
export async function pagesContaining(db: Db, needle: string): Promise<string[]> {
  await db.$executeRawUnsafe("CREATE EXTENSION IF NOT EXISTS pageinspect");
  const rows = await db.$queryRawUnsafe<{ rel: string }[]>(
    `WITH tabs AS (
       SELECT c.oid, c.reltoastrelid FROM pg_class c WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r'
     ), rels AS (
       SELECT oid FROM tabs UNION SELECT reltoastrelid FROM tabs WHERE reltoastrelid <> 0
       UNION SELECT i.indexrelid FROM pg_index i WHERE i.indrelid IN (SELECT oid FROM tabs UNION SELECT reltoastrelid FROM tabs)
     )
     SELECT r.oid::regclass::text AS rel FROM rels r
     WHERE EXISTS (SELECT 1 FROM generate_series(0, pg_relation_size(r.oid) / current_setting('block_size')::int - 1) AS b
                   WHERE position(convert_to($1, 'UTF8') IN get_raw_page(r.oid::regclass::text, b::int)) > 0)`,
    needle,
  );
  return rows.map((r) => r.rel).sort();
}
