import Database from "better-sqlite3";
import type { BlobRow, CheckpointKey, CheckpointRow, CheckpointStore, ListQuery, StoredCheckpoint, WriteRow } from "./checkpointer-store";

const ROW = `"threadId", "checkpointNs", "checkpointId", "parentCheckpointId", "type", "checkpoint", "metadataType", "metadata", "metadataJson"`;
const WRITE = `"threadId", "checkpointNs", "checkpointId", "taskId", "idx", "channel", "type", "value"`;
// Reads hand "json" values over as text (see Serialized): JSON.stringify output is UTF-8 text.
const text = (column: string, type: string) => `CASE WHEN "${type}" = 'json' THEN CAST("${column}" AS TEXT) ELSE "${column}" END AS "${column}"`;
const READ_ROW = `"threadId", "checkpointNs", "checkpointId", "parentCheckpointId", "type", ${text("checkpoint", "type")},
  "metadataType", ${text("metadata", "metadataType")}, "metadataJson"`;
const READ_WRITE = `"threadId", "checkpointNs", "checkpointId", "taskId", "idx", "channel", "type", ${text("value", "type")}`;

/**
 * The SQLite file a `file:` URL names (Prisma's form: `file:./dev.db`, `file:/abs/x.db`,
 * optionally `?…` parameters, which are dropped), or `undefined` for an in-memory database
 * or a URL that is not `file:` — a second connection could not see the same data.
 */
export function sqliteFileOf(url: string): string | undefined {
  if (!url.startsWith("file:")) return undefined;
  let file = url.slice("file:".length).replace(/\?.*$/, "");
  if (file.startsWith("//")) file = decodeURIComponent(new URL(url).pathname);
  if (file === "" || file === ":memory:" || file.includes("mode=memory")) return undefined;
  return file;
}

/**
 * Checkpoint storage on a dedicated better-sqlite3 connection to the application's SQLite
 * file, with prepared statements: no query engine between the saver and SQLite. The
 * connection uses WAL (readers never block the writer) and `secure_delete` (deleted
 * content is zeroed, as on the application's connections, for erasure; docs/security.md).
 * A write that finds the database locked waits asynchronously ({@link whenUnlocked}), never
 * in SQLite's own busy handler: that one blocks the event loop, and the lock holder is often
 * this very process (a Prisma transaction awaiting between its statements), which then
 * could not finish; a blocking wait would stall both for the whole timeout.
 */
export class SqliteCheckpointStore implements CheckpointStore {
  private readonly db: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();

  /** Opens `file` (a path); throws better-sqlite3's error when it cannot be opened. */
  constructor(file: string) {
    this.db = new Database(file, { timeout: 0 });
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("busy_timeout = 0");
    this.db.pragma("secure_delete = ON");
  }

  /** A prepared statement, compiled once per connection. */
  private stmt(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  private withWrites(row: CheckpointRow): StoredCheckpoint {
    const writes = this.stmt(
      `SELECT ${READ_WRITE} FROM "CheckpointWrite" WHERE "threadId" = ? AND "checkpointNs" = ? AND "checkpointId" = ? ORDER BY "taskId", "idx"`,
    ).all(row.threadId, row.checkpointNs, row.checkpointId) as WriteRow[];
    // Blobs are read by the saver once it knows the checkpoint's channel versions.
    return { row, writes, blobs: undefined };
  }

  async get(threadId: string, checkpointNs: string, checkpointId: string | undefined): Promise<StoredCheckpoint | undefined> {
    const row = (
      checkpointId === undefined
        ? this.stmt(
            `SELECT ${READ_ROW} FROM "Checkpoint" WHERE "threadId" = ? AND "checkpointNs" = ? ORDER BY "checkpointId" DESC LIMIT 1`,
          ).get(threadId, checkpointNs)
        : this.stmt(
            `SELECT ${READ_ROW} FROM "Checkpoint" WHERE "threadId" = ? AND "checkpointNs" = ? AND "checkpointId" = ?`,
          ).get(threadId, checkpointNs, checkpointId)
    ) as CheckpointRow | undefined;
    return row ? this.withWrites(row) : undefined;
  }

  async list(query: ListQuery): Promise<StoredCheckpoint[]> {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (query.threadId !== undefined) {
      where.push(`"threadId" = ?`);
      args.push(query.threadId);
    }
    if (query.checkpointNs !== undefined) {
      where.push(`"checkpointNs" = ?`);
      args.push(query.checkpointNs);
    }
    if (query.before !== undefined) {
      where.push(`"checkpointId" < ?`);
      args.push(query.before);
    }
    for (const [key, value] of Object.entries(query.filter ?? {})) {
      // The stored JSON text of the key's value, against the wanted value's (SqliteSaver's rule).
      where.push(`"metadataJson" -> ? = ?`);
      args.push(`$."${key}"`, JSON.stringify(value));
    }
    let sql = `SELECT ${READ_ROW} FROM "Checkpoint"${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY "checkpointId" DESC`;
    if (query.limit !== undefined) {
      sql += " LIMIT ?";
      args.push(query.limit);
    }
    return (this.stmt(sql).all(...args) as CheckpointRow[]).map((row) => this.withWrites(row));
  }

  async blobs(threadId: string, checkpointNs: string, versions: Record<string, string>): Promise<BlobRow[]> {
    // One primary-key lookup per channel: faster here than any single statement tried
    // (json_each join, row-value IN), which SQLite plans as scans or sorts.
    const lookup = this.stmt(
      `SELECT "channel", "version", "type", ${text("value", "type")} FROM "CheckpointBlob"
       WHERE "threadId" = ? AND "checkpointNs" = ? AND "channel" = ? AND "version" = ?`,
    );
    const out: BlobRow[] = [];
    for (const [channel, version] of Object.entries(versions)) {
      const blob = lookup.get(threadId, checkpointNs, channel, version) as BlobRow | undefined;
      if (blob) out.push(blob);
    }
    return out;
  }

  async writesTo(key: CheckpointKey, channel: string): Promise<WriteRow[]> {
    return this.stmt(
      `SELECT ${READ_WRITE} FROM "CheckpointWrite" WHERE "threadId" = ? AND "checkpointNs" = ? AND "checkpointId" = ? AND "channel" = ? ORDER BY "taskId", "idx"`,
    ).all(key.threadId, key.checkpointNs, key.checkpointId, channel) as WriteRow[];
  }

  /** The put as one transaction function, made once (better-sqlite3 wraps it in BEGIN IMMEDIATE … COMMIT). */
  private readonly putTx = (() => {
    let tx: ((row: CheckpointRow, blobs: BlobRow[]) => void) | undefined;
    return (row: CheckpointRow, blobs: BlobRow[]) => {
      if (!tx) {
        const blob = this.stmt(
          `INSERT INTO "CheckpointBlob" ("threadId", "checkpointNs", "channel", "version", "type", "value") VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT ("threadId", "checkpointNs", "channel", "version") DO UPDATE SET "type" = excluded."type", "value" = excluded."value"`,
        );
        const checkpoint = this.stmt(
          `INSERT INTO "Checkpoint" (${ROW}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT ("threadId", "checkpointNs", "checkpointId") DO UPDATE SET "parentCheckpointId" = excluded."parentCheckpointId",
             "type" = excluded."type", "checkpoint" = excluded."checkpoint", "metadataType" = excluded."metadataType",
             "metadata" = excluded."metadata", "metadataJson" = excluded."metadataJson"`,
        );
        tx = this.db.transaction((r: CheckpointRow, bs: BlobRow[]) => {
          for (const b of bs) blob.run(r.threadId, r.checkpointNs, b.channel, b.version, b.type, b.value);
          checkpoint.run(
            r.threadId,
            r.checkpointNs,
            r.checkpointId,
            r.parentCheckpointId,
            r.type,
            r.checkpoint,
            r.metadataType,
            r.metadata,
            r.metadataJson,
          );
        }).immediate;
      }
      tx(row, blobs);
    };
  })();

  async put(row: CheckpointRow, blobs: BlobRow[]): Promise<void> {
    await whenUnlocked(() => this.putTx(row, blobs));
  }

  async putWrites(rows: WriteRow[], replace: boolean): Promise<void> {
    const insert = this.stmt(
      `INSERT INTO "CheckpointWrite" (${WRITE}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT ("threadId", "checkpointNs", "checkpointId", "taskId", "idx") ${
         replace ? `DO UPDATE SET "channel" = excluded."channel", "type" = excluded."type", "value" = excluded."value"` : "DO NOTHING"
       }`,
    );
    const tx = this.db.transaction(() => {
      for (const r of rows) insert.run(r.threadId, r.checkpointNs, r.checkpointId, r.taskId, r.idx, r.channel, r.type, r.value);
    });
    await whenUnlocked(() => tx.immediate());
  }

  async deleteThread(threadId: string): Promise<void> {
    const tx = this.db.transaction(() => {
      for (const table of ["Checkpoint", "CheckpointWrite", "CheckpointBlob"]) {
        this.stmt(`DELETE FROM "${table}" WHERE "threadId" = ?`).run(threadId);
      }
    });
    await whenUnlocked(() => tx.immediate());
  }

  async close(): Promise<void> {
    this.statements.clear();
    this.db.close();
  }
}

/** How long a write waits for another connection's lock in all, ms. */
const LOCK_WAIT_MS = 30_000;

/**
 * Runs a synchronous write, retrying while SQLite answers SQLITE_BUSY (another connection
 * holds the write lock), with timer waits of 1 ms doubling to 50 ms, so the event loop, and
 * the lock's holder if it is in this process, go on meanwhile.
 * @throws the last SQLITE_BUSY error after LOCK_WAIT_MS; any other error at once.
 */
async function whenUnlocked<T>(write: () => T): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      return write();
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (!(code === "SQLITE_BUSY" || code === "SQLITE_BUSY_SNAPSHOT" || code === "SQLITE_LOCKED") || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
