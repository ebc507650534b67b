import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import type pg from "pg";

/**
 * The run events' hot statements on the driver (docs/storage.md "Run events"): a run appends
 * ~170 events in 20 steps and every follower reads them as they come, so these skip Prisma's
 * per-query work (about 1 ms of CPU each here, against tens of µs for a prepared statement).
 * They run on the process's one driver connection per database, the checkpointer's
 * (lib/db/checkpointer-stores.ts), outside any Prisma transaction: a caller inside one uses
 * Prisma (lib/runs/store-prisma.ts decides). Rows are the ones Prisma writes: a unique id, and
 * `createdAt` in the form Prisma stores (SQLite: ISO 8601 text with `+00:00`; PostgreSQL:
 * `timestamp(3)` in UTC).
 */

/** One stored run event, as lib/runs/store.ts `StoredEvent`. */
export interface EventRow {
  threadId: string;
  runId: string | null;
  /** Per thread, from 1. */
  seq: number;
  type: string;
  /** JSON text. */
  data: string;
}

/** The statements. Errors are the driver's (a missing thread: a foreign key error). */
export interface RunEventsSql {
  /**
   * Inserts an event at its seq, created at `at`.
   * @returns false when the thread already has an event at that seq (nothing written).
   */
  insert(e: EventRow, at: Date): Promise<boolean>;
  /** The thread's greatest seq, 0 when it has no event. */
  lastSeq(threadId: string): Promise<number>;
  /** The thread's events with seq > `afterSeq` (of run `runId` when given), in seq order, at most `take`. */
  after(threadId: string, afterSeq: number, take: number | undefined, runId: string | undefined): Promise<EventRow[]>;
}

const COLUMNS = `"threadId", "runId", "seq", "type", "data"`;
/** An event id: unique, as Prisma's cuid() default is (nothing reads its form). */
const newId = () => `e${randomUUID().replaceAll("-", "")}`;

/**
 * The statements on a better-sqlite3 connection.
 * @param stmt the connection's prepared-statement cache (key, then the SQL when not cached).
 * @param write runs a write, waiting asynchronously while another connection holds the lock.
 */
export function sqliteRunEvents(stmt: (sql: string) => Database.Statement, write: <T>(fn: () => T) => Promise<T>): RunEventsSql {
  const insert = `INSERT INTO "RunEvent" ("id", ${COLUMNS}, "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("threadId", "seq") DO NOTHING`;
  const last = `SELECT MAX("seq") AS "seq" FROM "RunEvent" WHERE "threadId" = ?`;
  const after = `SELECT ${COLUMNS} FROM "RunEvent" WHERE "threadId" = ? AND "seq" > ? ORDER BY "seq" LIMIT ?`;
  const afterOfRun = `SELECT ${COLUMNS} FROM "RunEvent" WHERE "threadId" = ? AND "seq" > ? AND "runId" = ? ORDER BY "seq" LIMIT ?`;
  return {
    async insert(e, at) {
      const created = at.toISOString().replace(/Z$/, "+00:00");
      const r = await write(() => stmt(insert).run(newId(), e.threadId, e.runId, e.seq, e.type, e.data, created));
      return r.changes === 1;
    },
    async lastSeq(threadId) {
      return (stmt(last).get(threadId) as { seq: number | null }).seq ?? 0;
    },
    async after(threadId, afterSeq, take, runId) {
      // LIMIT -1: no limit.
      return (runId === undefined ? stmt(after).all(threadId, afterSeq, take ?? -1) : stmt(afterOfRun).all(threadId, afterSeq, runId, take ?? -1)) as EventRow[];
    },
  };
}

/**
 * The statements on a PostgreSQL pool, as named prepared statements.
 * @param query runs a named statement of the pool and returns its rows and count.
 */
export function pgRunEvents(query: <R extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<{ rows: R[]; rowCount: number | null }>): RunEventsSql {
  return {
    async insert(e, at) {
      const r = await query(
        `INSERT INTO "RunEvent" ("id", ${COLUMNS}, "createdAt") VALUES ($1, $2, $3, $4, $5, $6, $7::timestamp(3)) ON CONFLICT ("threadId", "seq") DO NOTHING`,
        // The UTC time with no zone: a zone in the text of a timestamp without one is ignored.
        [newId(), e.threadId, e.runId, e.seq, e.type, e.data, at.toISOString().replace(/Z$/, "")],
      );
      return r.rowCount === 1;
    },
    async lastSeq(threadId) {
      const r = await query<{ seq: number | null }>(`SELECT MAX("seq") AS "seq" FROM "RunEvent" WHERE "threadId" = $1`, [threadId]);
      return r.rows[0]?.seq ?? 0;
    },
    async after(threadId, afterSeq, take, runId) {
      const r =
        runId === undefined
          ? await query<EventRow>(`SELECT ${COLUMNS} FROM "RunEvent" WHERE "threadId" = $1 AND "seq" > $2 ORDER BY "seq" LIMIT $3`, [threadId, afterSeq, take ?? null])
          : await query<EventRow>(`SELECT ${COLUMNS} FROM "RunEvent" WHERE "threadId" = $1 AND "seq" > $2 AND "runId" = $3 ORDER BY "seq" LIMIT $4`, [threadId, afterSeq, runId, take ?? null]);
      return r.rows;
    },
  };
}
