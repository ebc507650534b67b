import { type Db, dialectOf } from "../db/client";

/**
 * What an erasure does to the database after deleting rows (right to erasure, docs/architecture.md#memory,
 * docs/databases.md "Erasure"): deleted content must not linger where a copy of the database
 * would still hold it.
 * - SQLite: `secure_delete` zeroes freed pages, and the write-ahead log, which still holds
 *   the old pages, is checkpointed and truncated.
 * - PostgreSQL: a DELETE only marks row versions dead; they stay in the table's pages, its
 *   TOAST table and its indexes until VACUUM removes them. So the erasure VACUUMs the tables it
 *   deleted from (plain VACUUM: unlike VACUUM FULL it does not lock readers or writers out, save
 *   a brief lock to truncate empty pages at the end; it removes dead versions from heap, TOAST
 *   and index pages), one VACUUM per table at a time in a process (see vacuumAfterNow). What it cannot reach:
 *   the server's WAL keeps the old rows until it is recycled after later checkpoints, and a
 *   transaction older than the erasure keeps the rows it can see until it ends (autovacuum
 *   then removes them). Operators who need more run encrypted storage and short WAL retention.
 */

/** Tables whose rows an erasure deletes: the default of {@link scrubFreedPages}. */
export const ERASABLE_TABLES = [
  "Thread",
  "Run",
  "RunEvent",
  "Approval",
  "AuditEntry",
  "EvictedBlob",
  "MemoryEntry",
  "MemoryFact",
  "Checkpoint",
  "CheckpointBlob",
  "CheckpointWrite",
  "RunJob",
  "ToolExecution",
] as const;

/** A table {@link scrubFreedPages} may vacuum. */
export type ErasableTable = (typeof ERASABLE_TABLES)[number];

/**
 * On SQLite, turns `secure_delete` on for this connection (lib/db/client.ts already does for
 * every connection it opens; this covers clients made elsewhere). Call before deleting.
 * On PostgreSQL there is no such setting: {@link scrubFreedPages} does the work afterwards.
 */
export async function secureDeleteOn(db: Db): Promise<void> {
  if (dialectOf(db) === "sqlite") await db.$queryRawUnsafe("PRAGMA secure_delete = ON");
}

/**
 * After an erasure, outside any transaction. SQLite: when the database is in WAL mode,
 * checkpoints the log into the main file and truncates it to zero bytes
 * (`PRAGMA wal_checkpoint(TRUNCATE)`), so the frames that held the old pages are gone.
 * PostgreSQL: VACUUMs `tables` (see the module comment for what that reaches).
 * @param tables the tables the erasure deleted from (PostgreSQL only; default all of
 *   {@link ERASABLE_TABLES}).
 * @returns true when the scrub completed (false when a SQLite reader kept the checkpoint
 *   from finishing).
 */
export async function scrubFreedPages(db: Db, tables: readonly ErasableTable[] = ERASABLE_TABLES): Promise<boolean> {
  if (dialectOf(db) === "postgresql") {
    for (const table of tables) await vacuumAfterNow(db, table);
    return true;
  }
  const mode = await db.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
  if (String(mode[0]?.journal_mode).toLowerCase() !== "wal") return true;
  const res = await db.$queryRawUnsafe<{ busy: bigint | number }[]>("PRAGMA wal_checkpoint(TRUNCATE)");
  return Number(res[0]?.busy ?? 0) === 0;
}

/** Per client and table: the VACUUM running now, and the one queued to start after it. */
const vacuums = new WeakMap<Db, Map<ErasableTable, { running: Promise<void>; next: Promise<void> | null }>>();

/**
 * Resolves once a VACUUM of `table` that started after this call has ended (PostgreSQL), so it
 * removed every row version deleted before the call. Calls that arrive while one runs share the
 * single VACUUM queued behind it: at most one runs and one waits per table in this process.
 * Concurrent VACUUMs of one table queue on its lock, and while any waits, the one running
 * cannot take the brief exclusive lock its final truncation needs and retries for 5 s: a burst
 * of erasures then held every pooled connection for seconds each, and runs starved
 * (docs/databases.md "Erasure"). Another instance's VACUUM may still overlap; it only waits.
 * @throws whatever the VACUUM throws (to every caller that shares it).
 */
function vacuumAfterNow(db: Db, table: ErasableTable): Promise<void> {
  const byTable = vacuums.get(db) ?? new Map();
  vacuums.set(db, byTable);
  const current = byTable.get(table);
  if (current?.next) return current.next;
  // Names come from the fixed list above, never from input.
  const run = () => db.$executeRawUnsafe(`VACUUM "${table}"`).then(() => undefined);
  const settle = (p: Promise<void>) => {
    const done = () => {
      const now = byTable.get(table);
      if (now?.running !== p) return;
      if (now.next) byTable.set(table, { running: now.next, next: null });
      else byTable.delete(table);
    };
    p.then(done, done);
    return p;
  };
  if (!current) {
    const running = settle(run());
    byTable.set(table, { running, next: null });
    return running;
  }
  const next = settle(current.running.then(run, run));
  current.next = next;
  return next;
}
