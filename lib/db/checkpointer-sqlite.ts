import Database from "better-sqlite3";
import { type AccessSql, sqliteAccess } from "./access-sql";
import { isSqliteBusy } from "./prisma-error-code";
import type { BlobRow, CheckpointKey, CheckpointRow, CheckpointStore, ListQuery, StoredCheckpoint, WriteRow } from "./checkpointer-store";
import { type RunEventsSql, sqliteRunEvents } from "./run-events-sql";
import { type RunJobsSql, sqliteRunJobs } from "./run-jobs-sql";
import { sqliteRunWrites, type RunWritesSql } from "./run-writes-sql";

const ROW = `"threadId", "checkpointNs", "checkpointId", "parentCheckpointId", "type", "checkpoint", "metadataType", "metadata", "metadataJson"`;
const WRITE = `"threadId", "checkpointNs", "checkpointId", "taskId", "idx", "channel", "type", "value"`;
// Reads hand "json" values over as text (see Serialized): JSON.stringify output is UTF-8 text.
const text = (column: string, type: string) => `CASE WHEN "${type}" = 'json' THEN CAST("${column}" AS TEXT) ELSE "${column}" END AS "${column}"`;
const READ_WRITE = `"threadId", "checkpointNs", "checkpointId", "taskId", "idx", "channel", "type", ${text("value", "type")}`;
/**
 * The pending writes of the checkpoint row `c`, as one JSON array of
 * [taskId, idx, channel, type, value] ordered by task id then idx, in the same statement as the
 * row (as SqliteSaver reads them): a "json" value as its text, any other as hex.
 */
const WRITES_OF_ROW = `(SELECT json_group_array(json_array(w."taskId", w."idx", w."channel", w."type",
    CASE WHEN w."type" = 'json' THEN CAST(w."value" AS TEXT) ELSE hex(w."value") END) ORDER BY w."taskId", w."idx")
  FROM "CheckpointWrite" AS w
  WHERE w."threadId" = c."threadId" AND w."checkpointNs" = c."checkpointNs" AND w."checkpointId" = c."checkpointId") AS "writes"`;
/** The columns of a checkpoint row `c` ("json" bytes as text, see Serialized) and its writes (WRITES_OF_ROW). */
const READ_ROW_WITH_WRITES = `c."threadId", c."checkpointNs", c."checkpointId", c."parentCheckpointId", c."type",
  CASE WHEN c."type" = 'json' THEN CAST(c."checkpoint" AS TEXT) ELSE c."checkpoint" END AS "checkpoint", c."metadataType",
  CASE WHEN c."metadataType" = 'json' THEN CAST(c."metadata" AS TEXT) ELSE c."metadata" END AS "metadata", c."metadataJson",
  ${WRITES_OF_ROW}`;

const GET_LATEST = `SELECT ${READ_ROW_WITH_WRITES} FROM "Checkpoint" AS c
  WHERE c."threadId" = ? AND c."checkpointNs" = ? ORDER BY c."checkpointId" DESC LIMIT 1`;
const GET_BY_ID = `SELECT ${READ_ROW_WITH_WRITES} FROM "Checkpoint" AS c WHERE c."threadId" = ? AND c."checkpointNs" = ? AND c."checkpointId" = ?`;
const PUT_ROW = `INSERT INTO "Checkpoint" (${ROW}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT ("threadId", "checkpointNs", "checkpointId") DO UPDATE SET "parentCheckpointId" = excluded."parentCheckpointId",
    "type" = excluded."type", "checkpoint" = excluded."checkpoint", "metadataType" = excluded."metadataType",
    "metadata" = excluded."metadata", "metadataJson" = excluded."metadataJson"`;
const BLOB_LOOKUP = `SELECT "channel", "version", "type", ${text("value", "type")} FROM "CheckpointBlob"
  WHERE "threadId" = ? AND "checkpointNs" = ? AND "channel" = ? AND "version" = ?`;

/** A checkpoint row as read with its writes (JSON text, see WRITES_OF_ROW). */
type RowWithWrites = CheckpointRow & { writes: string };

/** The stored checkpoint of a row read with {@link READ_ROW_WITH_WRITES}. */
function storedOf(r: RowWithWrites): StoredCheckpoint {
  const { writes: text, ...row } = r;
  const writes: WriteRow[] =
    text === "[]"
      ? []
      : (JSON.parse(text) as [string, number, string, string, string][]).map(([taskId, idx, channel, type, value]) => ({
          threadId: row.threadId,
          checkpointNs: row.checkpointNs,
          checkpointId: row.checkpointId,
          taskId,
          idx,
          channel,
          type,
          value: type === "json" ? value : Buffer.from(value, "hex"),
        }));
  // Blobs are read by the saver once it knows which channels are blobs.
  return { row, writes, blobs: undefined };
}

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

  /**
   * A prepared statement, compiled once per connection. `key` names it (the SQL itself by
   * default); `sql` builds the text only the first time, so that a hot path neither builds nor
   * hashes a long string per call.
   */
  private stmt(key: string, sql: () => string = () => key): Database.Statement {
    let s = this.statements.get(key);
    if (!s) {
      s = this.db.prepare(sql());
      this.statements.set(key, s);
    }
    return s;
  }

  async get(threadId: string, checkpointNs: string, checkpointId: string | undefined): Promise<StoredCheckpoint | undefined> {
    const row = (checkpointId === undefined ? this.stmt(GET_LATEST).get(threadId, checkpointNs) : this.stmt(GET_BY_ID).get(threadId, checkpointNs, checkpointId)) as RowWithWrites | undefined;
    return row ? storedOf(row) : undefined;
  }

  async list(query: ListQuery): Promise<StoredCheckpoint[]> {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (query.threadId !== undefined) {
      where.push(`c."threadId" = ?`);
      args.push(query.threadId);
    }
    if (query.checkpointNs !== undefined) {
      where.push(`c."checkpointNs" = ?`);
      args.push(query.checkpointNs);
    }
    if (query.before !== undefined) {
      where.push(`c."checkpointId" < ?`);
      args.push(query.before);
    }
    for (const [key, value] of Object.entries(query.filter ?? {})) {
      // The stored JSON text of the key's value, against the wanted value's (SqliteSaver's rule).
      where.push(`c."metadataJson" -> ? = ?`);
      args.push(`$."${key}"`, JSON.stringify(value));
    }
    let sql = `SELECT ${READ_ROW_WITH_WRITES} FROM "Checkpoint" AS c${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY c."checkpointId" DESC`;
    if (query.limit !== undefined) {
      sql += " LIMIT ?";
      args.push(query.limit);
    }
    return (this.stmt(sql).all(...args) as RowWithWrites[]).map(storedOf);
  }

  async blobs(threadId: string, checkpointNs: string, versions: Record<string, string>): Promise<BlobRow[]> {
    // One primary-key lookup per channel: faster here than any single statement tried
    // (json_each join, row-value IN), which SQLite plans as scans or sorts.
    const lookup = this.stmt(BLOB_LOOKUP);
    const out: BlobRow[] = [];
    for (const [channel, version] of Object.entries(versions)) {
      const blob = lookup.get(threadId, checkpointNs, channel, version) as BlobRow | undefined;
      if (blob) out.push(blob);
    }
    return out;
  }

  async writesTo(key: CheckpointKey, channel: string): Promise<WriteRow[]> {
    return this.stmt(`SELECT ${READ_WRITE} FROM "CheckpointWrite" WHERE "threadId" = ? AND "checkpointNs" = ? AND "checkpointId" = ? AND "channel" = ? ORDER BY "taskId", "idx"`).all(
      key.threadId,
      key.checkpointNs,
      key.checkpointId,
      channel,
    ) as WriteRow[];
  }

  /** Inserts or replaces a checkpoint row: one prepared statement. */
  private putRow(r: CheckpointRow): void {
    this.stmt(PUT_ROW).run(r.threadId, r.checkpointNs, r.checkpointId, r.parentCheckpointId, r.type, r.checkpoint, r.metadataType, r.metadata, r.metadataJson);
  }

  /**
   * The put with blobs as one transaction function, made once (better-sqlite3 wraps it in
   * BEGIN IMMEDIATE … COMMIT): all the blobs in one multi-row INSERT, then the row.
   */
  private readonly putTx = (() => {
    let tx: ((row: CheckpointRow, blobs: BlobRow[]) => void) | undefined;
    return (row: CheckpointRow, blobs: BlobRow[]) => {
      tx ??= this.db.transaction((r: CheckpointRow, bs: BlobRow[]) => {
        for (const part of chunked(bs)) {
          const args: unknown[] = [];
          for (const b of part) args.push(r.threadId, r.checkpointNs, b.channel, b.version, b.type, b.value);
          this.stmt(
            `blobs:${part.length}`,
            () => `INSERT INTO "CheckpointBlob" ("threadId", "checkpointNs", "channel", "version", "type", "value")
               VALUES ${part.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")}
               ON CONFLICT ("threadId", "checkpointNs", "channel", "version") DO UPDATE SET "type" = excluded."type", "value" = excluded."value"`,
          ).run(...args);
        }
        this.putRow(r);
      }).immediate;
      tx(row, blobs);
    };
  })();

  async put(row: CheckpointRow, blobs: BlobRow[]): Promise<void> {
    // Without blobs (every value inline) the put is one statement, atomic on its own.
    await whenUnlocked(() => (blobs.length ? this.putTx(row, blobs) : this.putRow(row)));
  }

  async putWrites(rows: WriteRow[], replace: boolean): Promise<void> {
    if (rows.length === 0) return;
    const insert = (part: WriteRow[]) => {
      const args: unknown[] = [];
      for (const r of part) args.push(r.threadId, r.checkpointNs, r.checkpointId, r.taskId, r.idx, r.channel, r.type, r.value);
      this.stmt(
        `writes:${replace ? "replace" : "keep"}:${part.length}`,
        () => `INSERT INTO "CheckpointWrite" (${WRITE}) VALUES ${part.map(() => "(?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}
         ON CONFLICT ("threadId", "checkpointNs", "checkpointId", "taskId", "idx") ${
           replace ? `DO UPDATE SET "channel" = excluded."channel", "type" = excluded."type", "value" = excluded."value"` : "DO NOTHING"
         }`,
      ).run(...args);
    };
    // One statement (atomic on its own) up to ROWS_PER_STATEMENT rows; more in one transaction.
    const parts = chunked(rows);
    const [only] = parts;
    if (parts.length === 1 && only) await whenUnlocked(() => insert(only));
    else await whenUnlocked(() => this.db.transaction(() => parts.forEach(insert)).immediate());
  }

  async deleteThread(threadId: string): Promise<void> {
    const tx = this.db.transaction(() => {
      for (const table of ["Checkpoint", "CheckpointWrite", "CheckpointBlob"]) {
        this.stmt(`DELETE FROM "${table}" WHERE "threadId" = ?`).run(threadId);
      }
    });
    await whenUnlocked(() => tx.immediate());
  }

  private events: RunEventsSql | undefined;
  /** The run events' statements on this connection (lib/db/run-events-sql.ts). */
  runEvents(): RunEventsSql {
    this.events ??= sqliteRunEvents((sql) => this.stmt(sql), whenUnlocked);
    return this.events;
  }

  private reads: AccessSql | undefined;
  /** The run path's reads on this connection (lib/db/access-sql.ts). */
  access(): AccessSql {
    this.reads ??= sqliteAccess((sql) => this.stmt(sql));
    return this.reads;
  }

  private jobs: RunJobsSql | undefined;
  /** A worker's job read and claim on this connection (lib/db/run-jobs-sql.ts). */
  runJobs(): RunJobsSql {
    this.jobs ??= sqliteRunJobs(
      (sql) => this.stmt(sql),
      (fn) => whenUnlocked(() => this.db.transaction(fn).immediate()),
    );
    return this.jobs;
  }

  private calls: RunWritesSql | undefined;
  /** A tool call's intent and outcome writes on this connection (lib/db/run-writes-sql.ts). */
  runWrites(): RunWritesSql {
    this.calls ??= sqliteRunWrites((sql) => this.stmt(sql), whenUnlocked);
    return this.calls;
  }

  async close(): Promise<void> {
    this.statements.clear();
    this.db.close();
  }
}

/**
 * Rows per multi-row INSERT: far under SQLite's 32,766 bound variables (8 per write row), and
 * few statement shapes to prepare (one per row count up to this).
 */
const ROWS_PER_STATEMENT = 64;

/** `rows` in consecutive parts of at most {@link ROWS_PER_STATEMENT}. */
function chunked<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) out.push(rows.slice(i, i + ROWS_PER_STATEMENT));
  return out;
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
      if (!isSqliteBusy(err) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
}
