import pg from "pg";
import { logger } from "../log";
import { type AccessSql, pgAccess } from "./access-sql";
import { groupReadRows, type ReadRow } from "./checkpointer-read-rows";
import { type BlobRow, bytesOf, type CheckpointKey, type CheckpointRow, type CheckpointStore, type ListQuery, type StoredCheckpoint, type WriteRow } from "./checkpointer-store";
import { pgRunEvents, type RunEventsSql } from "./run-events-sql";
import { pgRunJobs, type RunJobsSql } from "./run-jobs-sql";
import { pgRunWrites, type RunWritesSql } from "./run-writes-sql";

const ROW = `"threadId", "checkpointNs", "checkpointId", "parentCheckpointId", "type", "checkpoint", "metadataType", "metadata", "metadataJson"`;
const WRITE = `"threadId", "checkpointNs", "checkpointId", "taskId", "idx", "channel", "type", "value"`;

/**
 * One statement that reads the checkpoints chosen by `cp` (a SELECT of Checkpoint rows, newest
 * first) with their pending writes and channel blobs, as rows of three kinds: 0 the
 * checkpoint, 1 a write, 2 a blob. `rn` is the checkpoint's rank. The blobs are the channel
 * versions the stored checkpoint JSON names in `channel_versions` (read in SQL, as the
 * official PostgresSaver does); a checkpoint whose serde type is not "json" gets none here.
 */
function readSql(cp: string): string {
  return `WITH cp AS (SELECT ${ROW}, row_number() OVER (ORDER BY "checkpointId" DESC) AS rn FROM (${cp}) AS c)
SELECT 0 AS kind, rn, "threadId", "checkpointNs", "checkpointId", "parentCheckpointId" AS a, "type" AS b, "metadataType" AS c,
  "checkpoint" AS d, "metadata" AS e, "metadataJson" AS f, NULL::int AS idx FROM cp
UNION ALL
SELECT 1, cp.rn, w."threadId", w."checkpointNs", w."checkpointId", w."taskId", w."channel", w."type", w."value", NULL, NULL, w."idx"
  FROM cp JOIN "CheckpointWrite" AS w
    ON w."threadId" = cp."threadId" AND w."checkpointNs" = cp."checkpointNs" AND w."checkpointId" = cp."checkpointId"
UNION ALL
SELECT 2, cp.rn, cp."threadId", cp."checkpointNs", cp."checkpointId", b."channel", b."type", b."version", b."value", NULL, NULL, NULL
  FROM cp CROSS JOIN LATERAL json_each_text(CASE WHEN cp."type" = 'json' THEN convert_from(cp."checkpoint", 'UTF8')::json -> 'channel_versions' END) AS v
  JOIN "CheckpointBlob" AS b
    ON b."threadId" = cp."threadId" AND b."checkpointNs" = cp."checkpointNs" AND b."channel" = v.key AND b."version" = v.value
ORDER BY rn, kind, a, idx`;
}

/**
 * The metadata key path of a list filter, compared with the JSON text of the wanted value:
 * `json -> key` keeps the stored JSON text of the value, and the saver writes `metadataJson`
 * with JSON.stringify, so this is JSON.stringify equality, as in the SQLite store.
 */
const FILTER = (p: number) => `("metadataJson"::json -> $${p})::text = $${p + 1}`;

/**
 * Checkpoint storage on PostgreSQL through a `pg.Pool` (node-postgres) on the application's
 * database URL: every read is one statement (checkpoint, writes and blobs together), a put
 * and a batch of writes are one statement each (atomic, one round trip), with named
 * prepared statements so the server parses and plans each shape once per connection.
 */
export class PgCheckpointStore implements CheckpointStore {
  private readonly pool: pg.Pool;
  private readonly names = new Map<string, string>();

  /** @param url a `postgresql://` URL; the pool opens at most 5 connections, lazily. */
  constructor(url: string) {
    this.pool = new pg.Pool({ connectionString: url, max: 5, idleTimeoutMillis: 10_000, allowExitOnIdle: true });
    // An idle connection that the server closes emits here; the next query opens another.
    this.pool.on("error", (err) => logger.warn({ err, module: "checkpointer" }, "checkpoint pool connection lost"));
  }

  /** Runs `text` as a named prepared statement of the pool (one name per text). */
  private result<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    let name = this.names.get(text);
    if (!name) {
      name = `phylactery_ckpt_${this.names.size}`;
      this.names.set(text, name);
    }
    return this.pool.query<R>({ name, text, values });
  }

  private async query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<R[]> {
    return (await this.result<R>(text, values)).rows;
  }

  async get(threadId: string, checkpointNs: string, checkpointId: string | undefined): Promise<StoredCheckpoint | undefined> {
    const rows =
      checkpointId === undefined
        ? await this.query<ReadRow>(readSql(`SELECT * FROM "Checkpoint" WHERE "threadId" = $1 AND "checkpointNs" = $2 ORDER BY "checkpointId" DESC LIMIT 1`), [threadId, checkpointNs])
        : await this.query<ReadRow>(readSql(`SELECT * FROM "Checkpoint" WHERE "threadId" = $1 AND "checkpointNs" = $2 AND "checkpointId" = $3`), [threadId, checkpointNs, checkpointId]);
    return groupReadRows(rows)[0];
  }

  async list(query: ListQuery): Promise<StoredCheckpoint[]> {
    const where: string[] = [];
    const args: unknown[] = [];
    if (query.threadId !== undefined) where.push(`"threadId" = $${args.push(query.threadId)}`);
    if (query.checkpointNs !== undefined) where.push(`"checkpointNs" = $${args.push(query.checkpointNs)}`);
    if (query.before !== undefined) where.push(`"checkpointId" < $${args.push(query.before)}`);
    for (const [key, value] of Object.entries(query.filter ?? {})) {
      where.push(FILTER(args.length + 1));
      args.push(key, JSON.stringify(value));
    }
    let cp = `SELECT * FROM "Checkpoint"${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY "checkpointId" DESC`;
    if (query.limit !== undefined) cp += ` LIMIT $${args.push(query.limit)}`;
    return groupReadRows(await this.query<ReadRow>(readSql(cp), args));
  }

  async blobs(threadId: string, checkpointNs: string, versions: Record<string, string>): Promise<BlobRow[]> {
    return this.query<BlobRow>(
      `SELECT b."channel", b."version", b."type", b."value" FROM json_each_text($3::json) AS v
       JOIN "CheckpointBlob" AS b ON b."threadId" = $1 AND b."checkpointNs" = $2 AND b."channel" = v.key AND b."version" = v.value`,
      [threadId, checkpointNs, JSON.stringify(versions)],
    );
  }

  async writesTo(key: CheckpointKey, channel: string): Promise<WriteRow[]> {
    return this.query<WriteRow>(
      `SELECT ${WRITE} FROM "CheckpointWrite"
       WHERE "threadId" = $1 AND "checkpointNs" = $2 AND "checkpointId" = $3 AND "channel" = $4 ORDER BY "taskId", "idx"`,
      [key.threadId, key.checkpointNs, key.checkpointId, channel],
    );
  }

  async put(row: CheckpointRow, blobs: BlobRow[], threadId: string, checkpointNs: string): Promise<void> {
    // One statement: the blob insert runs as a data-modifying CTE, so both commit together.
    await this.query(
      `WITH blobs AS (
         INSERT INTO "CheckpointBlob" ("threadId", "checkpointNs", "channel", "version", "type", "value")
         SELECT $1, $2, u.channel, u.version, u.type, u.value
           FROM unnest($10::text[], $11::text[], $12::text[], $13::bytea[]) AS u(channel, version, type, value)
         ON CONFLICT ("threadId", "checkpointNs", "channel", "version") DO UPDATE SET "type" = excluded."type", "value" = excluded."value"
       )
       INSERT INTO "Checkpoint" (${ROW}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT ("threadId", "checkpointNs", "checkpointId") DO UPDATE SET "parentCheckpointId" = excluded."parentCheckpointId",
         "type" = excluded."type", "checkpoint" = excluded."checkpoint", "metadataType" = excluded."metadataType",
         "metadata" = excluded."metadata", "metadataJson" = excluded."metadataJson"`,
      [
        threadId,
        checkpointNs,
        row.checkpointId,
        row.parentCheckpointId,
        row.type,
        row.checkpoint,
        row.metadataType,
        row.metadata,
        row.metadataJson,
        blobs.map((b) => b.channel),
        blobs.map((b) => b.version),
        blobs.map((b) => b.type),
        blobs.map((b) => bytesOf(b.value)),
      ],
    );
  }

  async putWrites(rows: WriteRow[], replace: boolean): Promise<void> {
    if (rows.length === 0) return;
    await this.query(
      `INSERT INTO "CheckpointWrite" (${WRITE})
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::text[], $8::bytea[])
       ON CONFLICT ("threadId", "checkpointNs", "checkpointId", "taskId", "idx") ${
         replace ? `DO UPDATE SET "channel" = excluded."channel", "type" = excluded."type", "value" = excluded."value"` : "DO NOTHING"
       }`,
      [
        rows.map((r) => r.threadId),
        rows.map((r) => r.checkpointNs),
        rows.map((r) => r.checkpointId),
        rows.map((r) => r.taskId),
        rows.map((r) => r.idx),
        rows.map((r) => r.channel),
        rows.map((r) => r.type),
        rows.map((r) => bytesOf(r.value)),
      ],
    );
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.query(
      `WITH c AS (DELETE FROM "Checkpoint" WHERE "threadId" = $1), w AS (DELETE FROM "CheckpointWrite" WHERE "threadId" = $1)
       DELETE FROM "CheckpointBlob" WHERE "threadId" = $1`,
      [threadId],
    );
  }

  private events: RunEventsSql | undefined;
  /** The run events' statements on this pool (lib/db/run-events-sql.ts). */
  runEvents(): RunEventsSql {
    this.events ??= pgRunEvents((text, values) => this.result(text, values));
    return this.events;
  }

  private reads: AccessSql | undefined;
  /** The run path's reads on this pool (lib/db/access-sql.ts). */
  access(): AccessSql {
    this.reads ??= pgAccess((text, values) => this.result(text, values));
    return this.reads;
  }

  private jobs: RunJobsSql | undefined;
  /** A worker's job read and claim on this pool (lib/db/run-jobs-sql.ts). */
  runJobs(): RunJobsSql {
    this.jobs ??= pgRunJobs((text, values) => this.result(text, values));
    return this.jobs;
  }

  private calls: RunWritesSql | undefined;
  /** A tool call's intent and outcome writes on this pool (lib/db/run-writes-sql.ts). */
  runWrites(): RunWritesSql {
    this.calls ??= pgRunWrites((text, values) => this.result(text, values));
    return this.calls;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
