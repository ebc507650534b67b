/**
 * Checkpointer throughput: PrismaCheckpointSaver vs the official SqliteSaver
 * (@langchain/langgraph-checkpoint-sqlite), same workload, same run, each on a fresh
 * SQLite file (WAL). Prints ops/s and the ratio prisma/sqlite (goal >= 1.0, issue 2).
 * Run: npm run bench:checkpointer
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BaseCheckpointSaver, Checkpoint } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { PrismaCheckpointSaver } from "../lib/db/checkpointer";
import { createTestDb } from "../lib/db/test-db";

const THREADS = 20;
const PER_THREAD = 100;
const GETS = 2000;
const LISTS = 200;

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

async function measure(saver: BaseCheckpointSaver): Promise<Record<string, number>> {
  const parents = new Map<string, string | undefined>();
  let t = performance.now();
  for (let i = 0; i < PER_THREAD; i++) {
    for (let th = 0; th < THREADS; th++) {
      const thread_id = `thread-${th}`;
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
  const put = (THREADS * PER_THREAD) / ((performance.now() - t) / 1000);

  t = performance.now();
  for (let i = 0; i < GETS; i++) {
    const tuple = await saver.getTuple({ configurable: { thread_id: `thread-${i % THREADS}`, checkpoint_ns: "" } });
    if (!tuple) throw new Error("missing checkpoint");
  }
  const getTuple = GETS / ((performance.now() - t) / 1000);

  t = performance.now();
  for (let i = 0; i < LISTS; i++) {
    let n = 0;
    for await (const _ of saver.list({ configurable: { thread_id: `thread-${i % THREADS}` } }, { limit: 10 })) n++;
    if (n !== 10) throw new Error(`list returned ${n}`);
  }
  const list = LISTS / ((performance.now() - t) / 1000);
  return { put, getTuple, list };
}

async function main(): Promise<void> {
  const prismaDb = await createTestDb();
  const dir = mkdtempSync(path.join(tmpdir(), "phylactery-bench-"));
  const sqlite = SqliteSaver.fromConnString(path.join(dir, "sqlite.db"));
  try {
    const ours = await measure(new PrismaCheckpointSaver(prismaDb.db));
    const theirs = await measure(sqlite);
    console.log(`workload: ${THREADS * PER_THREAD} puts (${THREADS} threads), ${GETS} getTuple, ${LISTS} list(limit 10)`);
    console.log("op        PrismaCheckpointSaver   SqliteSaver   ratio");
    for (const op of ["put", "getTuple", "list"] as const) {
      const a = ours[op] ?? 0;
      const b = theirs[op] ?? 1;
      console.log(`${op.padEnd(9)} ${a.toFixed(0).padStart(14)} ops/s ${b.toFixed(0).padStart(9)} ops/s  ${(a / b).toFixed(2)}`);
    }
  } finally {
    sqlite.db.close();
    await prismaDb.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
