import path from "node:path";
import type { AccessSql } from "./access-sql";
import { PgCheckpointStore } from "./checkpointer-pg";
import { SqliteCheckpointStore, sqliteFileOf } from "./checkpointer-sqlite";
import type { CheckpointStore } from "./checkpointer-store";
import type { RunWritesSql } from "./run-writes-sql";
import { dbUrlOf } from "./db-url";

// One driver connection (SQLite) or pool (PostgreSQL) per database per process, shared by
// every saver: a saver is made per run, and opening a pool per run would exhaust the server.
const stores = new Map<string, CheckpointStore>();

const keys = new Map<string, string | undefined>();

/** The registry key of a URL: the absolute file of a SQLite URL, else the URL itself (memoized: asked per call). */
function keyOf(url: string): string | undefined {
  if (keys.has(url)) return keys.get(url);
  let key: string | undefined = url;
  if (!/^postgres(ql)?:\/\//.test(url)) {
    const file = sqliteFileOf(url);
    key = file === undefined ? undefined : `file:${path.resolve(file)}`;
  }
  keys.set(url, key);
  return key;
}

/**
 * The process's driver-level checkpoint store for a database URL (`file:` SQLite or
 * `postgresql://`), opened on first use; `undefined` when the URL cannot have a second
 * connection (in-memory SQLite) or names another kind of database.
 */
export function checkpointStoreFor(url: string): CheckpointStore | undefined {
  const key = keyOf(url);
  if (key === undefined) return undefined;
  let store = stores.get(key);
  if (!store) {
    store = key.startsWith("file:") ? new SqliteCheckpointStore(key.slice("file:".length)) : new PgCheckpointStore(url);
    stores.set(key, store);
  }
  return store;
}

/**
 * Closes the store of `url` (its SQLite connection or its pool), e.g. before the test
 * removes the database or at shutdown; the next saver call on that URL opens a new one.
 */
export async function closeCheckpointStore(url: string): Promise<void> {
  const key = keyOf(url);
  const store = key === undefined ? undefined : stores.get(key);
  if (!store || key === undefined) return;
  stores.delete(key);
  await store.close();
}

/** Closes every store this process opened (shutdown of a worker or a script). */
export async function closeCheckpointStores(): Promise<void> {
  const all = [...stores.values()];
  stores.clear();
  await Promise.all(all.map((s) => s.close()));
}

/**
 * The run path's reads on the driver for `db`'s database (lib/db/access-sql.ts), when `db` is a
 * root client with a known URL; `undefined` for a transaction's client (its reads stay in its
 * transaction) or a database without a driver store (in-memory SQLite). Looked up per call: a
 * closed store reopens on next use.
 */
export function accessSqlOf(db: object): AccessSql | undefined {
  const url = dbUrlOf(db);
  return url === undefined ? undefined : checkpointStoreFor(url)?.access?.();
}

/** A run's tool call and audit writes on the driver for `db`'s database (lib/db/run-writes-sql.ts), as {@link accessSqlOf}. */
export function runWritesSqlOf(db: object): RunWritesSql | undefined {
  const url = dbUrlOf(db);
  return url === undefined ? undefined : checkpointStoreFor(url)?.runWrites?.();
}
