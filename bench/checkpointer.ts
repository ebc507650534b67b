/**
 * Checkpointer throughput: PrismaCheckpointSaver vs the official savers, same workload, same
 * run, each on a fresh database:
 * - SQLite: the official SqliteSaver (@langchain/langgraph-checkpoint-sqlite) on its own
 *   file (WAL), ours on a migrated file (WAL);
 * - PostgreSQL, when BENCH_PG_URL or DATABASE_URL is a postgresql:// URL: the official
 *   PostgresSaver (@langchain/langgraph-checkpoint-postgres) and ours, each on a new database
 *   of that server (both dropped afterwards).
 * Ours runs twice: as the app makes it, and with `cacheLatest` (a saver under the run lease).
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

/** Puts PER_THREAD checkpoints on each of THREADS threads (prefixed), then reads them. */
async function measure(saver: BaseCheckpointSaver, prefix = "thread", scale = 1): Promise<Result> {
  const threads = Math.max(1, Math.round(THREADS * scale));
  const perThread = Math.max(10, Math.round(PER_THREAD * scale));
  const parents = new Map<string, string | undefined>();
  let t = performance.now();
  for (let i = 0; i < perThread; i++) {
    for (let th = 0; th < threads; th++) {
      const thread_id = `${prefix}-${th}`;
      const cp = checkpointAt(i);
      const versions = i === 0 ? cp.channel_versions : { messages: i + 1, step: i + 1 };
      await saver.put(
        { configurable: { thread_id, checkpoint_ns: "", checkpoint_id: parents.get(thread_id) } },
        cp,
        { source: "loop", step: i, parents: {} },
        versions,
      );
      parents.set(thread_id, cp.id);
    }
  }
  const put = (threads * perThread) / ((performance.now() - t) / 1000);

  const gets = Math.round(GETS * scale);
  t = performance.now();
  for (let i = 0; i < gets; i++) {
    const tuple = await saver.getTuple({ configurable: { thread_id: `${prefix}-${i % threads}`, checkpoint_ns: "" } });
    if (tuple?.checkpoint.channel_values.step !== perThread - 1) throw new Error("wrong latest checkpoint");
  }
  const getTuple = gets / ((performance.now() - t) / 1000);

  const lists = Math.round(LISTS * scale);
  t = performance.now();
  for (let i = 0; i < lists; i++) {
    let n = 0;
    for await (const _ of saver.list({ configurable: { thread_id: `${prefix}-${i % threads}` } }, { limit: 10 })) n++;
    if (n !== 10) throw new Error(`list returned ${n}`);
  }
  const list = lists / ((performance.now() - t) / 1000);
  return { put, getTuple, list };
}

/** A short unmeasured round first, so that neither saver pays for the JIT warming up. */
async function warmAndMeasure(saver: BaseCheckpointSaver): Promise<Result> {
  await measure(saver, "warmup", 0.1);
  return measure(saver, "thread");
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
    const theirs = await warmAndMeasure(official);
    const ours = await warmAndMeasure(new PrismaCheckpointSaver(plain.db, { url: plain.url }));
    const cached = await warmAndMeasure(new PrismaCheckpointSaver(cachedDb.db, { url: cachedDb.url, cacheLatest: true }));
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
    const theirs = await warmAndMeasure(official);
    const ours = await warmAndMeasure(new PrismaCheckpointSaver(db, { url: plain.url }));
    const cached = await warmAndMeasure(new PrismaCheckpointSaver(db, { url: cachedDb.url, cacheLatest: true }));
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
  console.log(
    `workload per saver: ${THREADS * PER_THREAD} puts (${THREADS} threads), ${GETS} getTuple (latest), ${LISTS} list (limit 10)`,
  );
  await sqlite();
  const pgUrl = [process.env.BENCH_PG_URL, process.env.DATABASE_URL].find((u) => u && /^postgres(ql)?:\/\//.test(u));
  if (pgUrl) await postgres(pgUrl);
  else console.log("\nPostgreSQL: skipped (set BENCH_PG_URL, or DATABASE_URL, to a postgresql:// URL)");
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
