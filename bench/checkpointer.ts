/**
 * Checkpointer throughput: PrismaCheckpointSaver vs the official savers, same workload, same
 * run, each on a fresh database:
 * - SQLite: the official SqliteSaver (@langchain/langgraph-checkpoint-sqlite) on its own
 *   file (WAL), ours on a migrated file (WAL);
 * - PostgreSQL, when BENCH_PG_URL or DATABASE_URL is a postgresql:// URL: the official
 *   PostgresSaver (@langchain/langgraph-checkpoint-postgres) and ours, each on a new database
 *   of that server (both dropped afterwards).
 * Ours runs twice: as the app makes it, and with `cacheLatest` (a saver under the run lease).
 * The savers run interleaved in small chunks, so that they share the machine's load alike.
 * Prints ops/s and the ratio ours/official for put, getTuple and list (goal >= 1.0).
 * Run: npm run bench:checkpointer   (BENCH_PG_URL=postgresql://user@host:port/db for PostgreSQL)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BaseCheckpointSaver, Checkpoint } from "@langchain/langgraph-checkpoint";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createDb } from "../lib/db/client";
import { PrismaCheckpointSaver } from "../lib/db/checkpointer";
import { createPgTestDatabase } from "../lib/db/checkpointer-pg-test-db";
import { closeCheckpointStores } from "../lib/db/checkpointer-stores";
import { createTestDb } from "../lib/db/test-db";

const THREADS = 20;
const PER_THREAD = 100;
const GETS = 2000;
const LISTS = 200;
const OPS = ["put", "getTuple", "list"] as const;
type Result = Record<(typeof OPS)[number], number>;

function checkpointAt(i: number): Checkpoint {
  return {
    v: 4,
    id: `1ef${String(i).padStart(13, "0")}`,
    ts: new Date(1_700_000_000_000 + i).toISOString(),
    channel_values: { messages: [`message ${i}`], step: i, notes: "x".repeat(512) },
    channel_versions: { messages: i + 1, step: i + 1, notes: 1 },
    versions_seen: { agent: { messages: i } },
  };
}

type Saver = BaseCheckpointSaver;
/** Milliseconds spent by each saver, by op. */
type Spent = Record<(typeof OPS)[number], number>[];

/**
 * Runs the workload on every saver, interleaved in chunks (a chunk of puts on each saver in
 * turn, then the next chunk…), so that all of them see the same machine load: the machine
 * is shared, and measuring one saver after the other would compare different moments.
 * `prefix` names the threads (a warm-up uses its own); `scale` shrinks the workload.
 */
async function measureAll(savers: Saver[], prefix: string, scale = 1): Promise<Result[]> {
  const threads = Math.max(1, Math.round(THREADS * scale));
  const perThread = Math.max(10, Math.round(PER_THREAD * scale));
  const gets = Math.round(GETS * scale);
  const lists = Math.round(LISTS * scale);
  const spent: Spent = savers.map(() => ({ put: 0, getTuple: 0, list: 0 }));
  const timed = async (op: (typeof OPS)[number], k: number, fn: () => Promise<void>) => {
    const t = performance.now();
    await fn();
    const s = spent[k];
    if (s) s[op] += performance.now() - t;
  };
  // put: one step (a checkpoint on every thread) per chunk.
  for (let i = 0; i < perThread; i++) {
    const cp = checkpointAt(i);
    const versions = i === 0 ? cp.channel_versions : { messages: i + 1, step: i + 1 };
    const parent = i === 0 ? undefined : checkpointAt(i - 1).id;
    for (const [k, saver] of savers.entries()) {
      await timed("put", k, async () => {
        for (let th = 0; th < threads; th++) {
          await saver.put({ configurable: { thread_id: `${prefix}-${th}`, checkpoint_ns: "", checkpoint_id: parent } }, cp, { source: "loop", step: i, parents: {} }, versions);
        }
      });
    }
  }
  const chunk = 20;
  for (let from = 0; from < gets; from += chunk) {
    for (const [k, saver] of savers.entries()) {
      await timed("getTuple", k, async () => {
        for (let i = from; i < Math.min(gets, from + chunk); i++) {
          const tuple = await saver.getTuple({ configurable: { thread_id: `${prefix}-${i % threads}`, checkpoint_ns: "" } });
          if (tuple?.checkpoint.channel_values.step !== perThread - 1) throw new Error("wrong latest checkpoint");
        }
      });
    }
  }
  for (let from = 0; from < lists; from += 5) {
    for (const [k, saver] of savers.entries()) {
      await timed("list", k, async () => {
        for (let i = from; i < Math.min(lists, from + 5); i++) {
          let n = 0;
          for await (const _ of saver.list({ configurable: { thread_id: `${prefix}-${i % threads}` } }, { limit: 10 })) n++;
          if (n !== 10) throw new Error(`list returned ${n}`);
        }
      });
    }
  }
  return spent.map((s) => ({
    put: (threads * perThread) / (s.put / 1000),
    getTuple: gets / (s.getTuple / 1000),
    list: lists / (s.list / 1000),
  }));
}

/** A short unmeasured round first, so that no saver pays for the JIT warming up. */
async function warmAndMeasure(savers: Saver[]): Promise<Result[]> {
  await measureAll(savers, "warmup", 0.1);
  return measureAll(savers, "thread");
}

function print(database: string, official: string, theirs: Result, ours: Result, cached: Result): void {
  console.log(`\n${database}: ours vs ${official}`);
  console.log("op        official ops/s   ours ops/s  ratio   ours cached ops/s  ratio");
  for (const op of OPS) {
    const cell = (r: Result) => `${r[op].toFixed(0).padStart(10)}  ${(r[op] / theirs[op]).toFixed(2).padStart(5)}`;
    console.log(`${op.padEnd(9)} ${theirs[op].toFixed(0).padStart(14)} ${cell(ours)}  ${cell(cached).padStart(24)}`);
  }
}

async function sqlite(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "phylactery-bench-"));
  const official = SqliteSaver.fromConnString(path.join(dir, "sqlite.db"));
  const plain = await createTestDb();
  const cachedDb = await createTestDb();
  try {
    const [theirs, ours, cached] = await warmAndMeasure([
      official,
      new PrismaCheckpointSaver(plain.db, { url: plain.url }),
      new PrismaCheckpointSaver(cachedDb.db, { url: cachedDb.url, cacheLatest: true }),
    ]);
    if (!theirs || !ours || !cached) throw new Error("missing result");
    print("SQLite (ran)", "SqliteSaver", theirs, ours, cached);
  } finally {
    official.db.close();
    await closeCheckpointStores();
    await plain.cleanup();
    await cachedDb.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres(serverUrl: string): Promise<void> {
  const officialDb = await createPgTestDatabase(serverUrl);
  const plain = await createPgTestDatabase(serverUrl);
  const cachedDb = await createPgTestDatabase(serverUrl);
  const official = PostgresSaver.fromConnString(officialDb.url);
  // Our saver needs only the URL here; the Prisma client is the application's (unused).
  const db = createDb(plain.url);
  try {
    await official.setup();
    const [theirs, ours, cached] = await warmAndMeasure([official, new PrismaCheckpointSaver(db, { url: plain.url }), new PrismaCheckpointSaver(db, { url: cachedDb.url, cacheLatest: true })]);
    if (!theirs || !ours || !cached) throw new Error("missing result");
    const where = new URL(serverUrl);
    print(`PostgreSQL (ran, server ${where.host})`, "PostgresSaver", theirs, ours, cached);
  } finally {
    await official.end();
    await closeCheckpointStores();
    await db.$disconnect();
    for (const d of [officialDb, plain, cachedDb]) await d.cleanup();
  }
}

async function main(): Promise<void> {
  console.log(`workload per saver: ${THREADS * PER_THREAD} puts (${THREADS} threads), ${GETS} getTuple (latest), ${LISTS} list (limit 10)`);
  await sqlite();
  const pgUrl = [process.env.BENCH_PG_URL, process.env.DATABASE_URL].find((u) => u && /^postgres(ql)?:\/\//.test(u));
  if (pgUrl) await postgres(pgUrl);
  else console.log("\nPostgreSQL: skipped (set BENCH_PG_URL, or DATABASE_URL, to a postgresql:// URL)");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
