/**
 * Checkpoint storage per thread, before and after pruning (docs/storage.md).
 *
 * Runs N threads (default 20; `npm run bench:storage -- 50` for 50) of the Workspace assistant
 * template with the offline model on a fresh SQLite file (createTestDb), each the README's
 * walk-through: "Summarize notes.md into summary.md" reads notes.md, stops at the approval of
 * its write_file, is approved and completes (two runs, a tool call each). Then prunes every
 * thread through the sweeper with retention 0 (lib/db/prune-sweeper.ts) and measures again.
 *
 * What it measures, before and after:
 * - rows: the sum over the thread's rows in Checkpoint, CheckpointBlob and CheckpointWrite of
 *   every column's stored byte length (`length(CAST(col AS BLOB))`: bytes of a BLOB, UTF-8
 *   bytes of a TEXT, digits of an INTEGER), per table, divided by N. No page or index overhead.
 * - file: the database file's size after `wal_checkpoint(TRUNCATE)` and `VACUUM`, divided by N;
 *   it holds every table (runs, run events, audit, users, flows...), so it shows what pruning
 *   saves on disk, indexes and page slack included. With `dbstat`, the checkpoint tables' and
 *   their indexes' share of it too.
 * Prints before / after / after÷before. SQLite only (the default database).
 */
import { statSync } from "node:fs";
import Database from "better-sqlite3";

// Run logs would bury the table: quiet unless asked (read when the logger is first made).
process.env.LOG_LEVEL ??= "error";
const { sweepPrunableThreads } = await import("../lib/db/prune-sweeper");
const { collect, engineFixture, lastData } = await import("../lib/runs/test-helpers");

const N = Number.parseInt(process.argv[3] ?? "20", 10);
if (!Number.isInteger(N) || N < 1) throw new Error(`threads: expected a whole number >= 1, got ${process.argv[3]}`);
const TABLES = ["Checkpoint", "CheckpointBlob", "CheckpointWrite"] as const;
const TASK = "Summarize notes.md into summary.md";

interface Measure {
  /** Column bytes per thread, by table. */
  rows: Record<(typeof TABLES)[number], number>;
  /** Database file bytes per thread after VACUUM. */
  file: number;
  /** Pages of the checkpoint tables and their indexes per thread (bytes), when dbstat is there. */
  pages: number | null;
}

/** Column byte sums of the three tables, and the file after VACUUM (the Prisma client must be disconnected). */
function measure(file: string): Measure {
  const sqlite = new Database(file);
  try {
    const rows = {} as Measure["rows"];
    for (const table of TABLES) {
      const cols = (sqlite.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => `COALESCE(length(CAST("${c.name}" AS BLOB)), 0)`);
      const { bytes } = sqlite.prepare(`SELECT COALESCE(SUM(${cols.join(" + ")}), 0) AS bytes FROM "${table}"`).get() as { bytes: number };
      rows[table] = bytes / N;
    }
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    sqlite.exec("VACUUM");
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
    let pages: number | null = null;
    try {
      const names = TABLES.map((t) => `'${t}', 'sqlite_autoindex_${t}_1'`).join(", ");
      const { bytes } = sqlite.prepare(`SELECT SUM(pgsize) AS bytes FROM dbstat WHERE name IN (${names})`).get() as { bytes: number };
      pages = bytes / N;
    } catch {
      pages = null; // this SQLite build has no dbstat
    }
    return { rows, file: statSync(file).size / N, pages };
  } finally {
    sqlite.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const line = (label: string, before: number, after: number) => console.log(`${label.padEnd(40)} ${kb(before).padStart(10)} ${kb(after).padStart(10)} ${(after / before).toFixed(3).padStart(8)}`);

const f = await engineFixture();
try {
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const threadId = await f.newThread(TASK);
    const first = await collect(await f.prepare(threadId, { kind: "message", text: TASK }));
    const a = lastData(first, "data-approval")?.data;
    if (!a) throw new Error(`thread ${i}: the run did not ask for approval`);
    const second = await collect(await f.prepare(threadId, { kind: "decision", approvalId: a.approvalId, decision: "approve", token: a.token, argsHash: a.argsHash }));
    const status = lastData(second, "data-run")?.data.status;
    if (status !== "completed") throw new Error(`thread ${i}: ended ${status}, expected completed`);
  }
  const ranMs = performance.now() - t0;
  const file = f.t.file;
  if (!file) throw new Error("bench:storage measures a SQLite file: run it without TEST_DATABASE_URL");
  await f.t.db.$disconnect();
  const before = measure(file);

  const t1 = performance.now();
  let pruned = 0;
  let writesDeleted = 0;
  for (;;) {
    const r = await sweepPrunableThreads(f.t.db, { retentionMs: 0, batchSize: 50 });
    pruned += r.pruned;
    writesDeleted += r.writesDeleted;
    if (r.pruned === 0) break;
  }
  const pruneMs = performance.now() - t1;
  if (pruned !== N) throw new Error(`pruned ${pruned} threads, expected ${N}`);
  await f.t.db.$disconnect();
  const after = measure(file);

  console.log(`${N} threads (Workspace assistant, offline model: read, approval, write), ran in ${(ranMs / 1000).toFixed(1)} s; pruned in ${pruneMs.toFixed(0)} ms (${writesDeleted} writes deleted)`);
  console.log(`${"per thread".padEnd(40)} ${"before".padStart(10)} ${"after".padStart(10)} ${"ratio".padStart(8)}`);
  for (const table of TABLES) line(`  ${table} rows (column bytes)`, before.rows[table], after.rows[table]);
  const sum = (m: Measure) => TABLES.reduce((s, t) => s + m.rows[t], 0);
  line("  checkpoint rows, total", sum(before), sum(after));
  if (before.pages !== null && after.pages !== null) line("  checkpoint tables+indexes (pages)", before.pages, after.pages);
  line("  database file after VACUUM", before.file, after.file);
} finally {
  await f.cleanup();
}
