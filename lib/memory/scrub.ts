import type { Db } from "../db/client";

/**
 * What an erasure does to the SQLite file after deleting rows (right to erasure: docs/architecture.md#memory):
 * deleted content must not linger in freed pages or in the write-ahead log.
 */

/**
 * Turns `secure_delete` on for this connection (lib/db/client.ts already does for every
 * connection it opens; this covers clients made elsewhere). Call before deleting.
 */
export async function secureDeleteOn(db: Db): Promise<void> {
  await db.$queryRawUnsafe("PRAGMA secure_delete = ON");
}

/**
 * After an erasure: when the database is in WAL mode, checkpoints the log into the main file
 * and truncates it to zero bytes (`PRAGMA wal_checkpoint(TRUNCATE)`), so that the frames that
 * held the old pages are gone. Other databases: nothing to do.
 * @returns true when the checkpoint completed (false when a reader kept it from finishing).
 */
export async function scrubFreedPages(db: Db): Promise<boolean> {
  const mode = await db.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
  if (String(mode[0]?.journal_mode).toLowerCase() !== "wal") return true;
  const res = await db.$queryRawUnsafe<{ busy: bigint | number }[]>("PRAGMA wal_checkpoint(TRUNCATE)");
  return Number(res[0]?.busy ?? 0) === 0;
}
