import type Database from "better-sqlite3";
import type pg from "pg";

/**
 * A worker's first two steps on a job, on the driver (docs/storage.md "Reads on the driver"):
 * reading the job, and claiming it with its thread's lease. Every run takes both, and through
 * Prisma 6.19 they cost five queries (~1 ms of CPU each here); here a prepared statement and
 * one transaction (SQLite) or one statement (PostgreSQL). They run on the process's driver
 * connection per database (the checkpointer's, lib/db/checkpointer-stores.ts), outside any
 * Prisma transaction; lib/runs/store-prisma.ts uses them for a root client only. The rows they
 * write are the ones Prisma writes: `updatedAt` set to the current time (the models'
 * `@updatedAt`), times in the form Prisma stores (SQLite: ISO 8601 text with `+00:00`;
 * PostgreSQL: `timestamp(3)` in UTC).
 */
export interface RunJobsSql {
  /** The job's row; null when there is no such job. */
  job(id: string): Promise<JobRow | null>;
  /**
   * Claims a job that is not done, with its thread's lease when the job's run owns the thread
   * and no live holder has it (none, or its lease lapsed before `now`): the lease gets
   * `holder` until `now + ttlMs`, the job is claimed (holder, attempts + 1), the run is
   * running. All of it or nothing, atomically.
   * @param now ms since the epoch. @param ttlMs the lease's length, ms.
   * @returns false when the job is done, the run does not own the thread, or a live holder has it.
   */
  claim(job: { id: string; runId: string; threadId: string }, holder: string, now: number, ttlMs: number): Promise<boolean>;
}

/** A job as a worker reads it (lib/runs/store.ts `JobRecord`). */
export interface JobRow {
  id: string;
  runId: string;
  threadId: string;
  requestedBy: string;
  /** JSON: the run's input (lib/runs/run-input.ts `JobInput`). */
  input: string;
  /** The thread's latest checkpoint id when the run was accepted (null: none yet). */
  startCheckpointId: string | null;
  /** queued | claimed | done | cancel_requested */
  status: string;
  /** How many times a worker claimed it (recoveries included). */
  attempts: number;
  holder: string | null;
}

const JOB = `SELECT "id", "runId", "threadId", "requestedBy", "input", "startCheckpointId", "status", "attempts", "holder" FROM "RunJob" WHERE "id" = ?`;

/** A time as Prisma stores it in SQLite. */
const sqliteTime = (ms: number) => new Date(ms).toISOString().replace(/Z$/, "+00:00");

/**
 * The statements on a better-sqlite3 connection.
 * @param stmt the connection's prepared-statement cache.
 * @param immediate runs `fn` in one `BEGIN IMMEDIATE` transaction, waiting asynchronously while another connection holds the lock.
 */
export function sqliteRunJobs(stmt: (sql: string) => Database.Statement, immediate: <T>(fn: () => T) => Promise<T>): RunJobsSql {
  return {
    async job(id) {
      return (stmt(JOB).get(id) as JobRow | undefined) ?? null;
    },
    claim(job, holder, now, ttlMs) {
      return immediate(() => {
        if (!stmt(`SELECT 1 FROM "RunJob" WHERE "id" = ? AND "status" <> 'done'`).get(job.id)) return false;
        const updated = sqliteTime(Date.now());
        const lease = stmt(
          `UPDATE "Thread" SET "leaseHolder" = ?, "leaseExpiresAt" = ?, "updatedAt" = ?
           WHERE "id" = ? AND "leaseRunId" = ? AND ("leaseHolder" IS NULL OR "leaseExpiresAt" < ?)`,
        ).run(holder, sqliteTime(now + ttlMs), updated, job.threadId, job.runId, sqliteTime(now));
        if (lease.changes !== 1) return false;
        stmt(`UPDATE "RunJob" SET "status" = 'claimed', "holder" = ?, "attempts" = "attempts" + 1, "updatedAt" = ? WHERE "id" = ?`).run(holder, updated, job.id);
        stmt(`UPDATE "Run" SET "status" = 'running' WHERE "id" = ?`).run(job.runId);
        return true;
      });
    },
  };
}

/**
 * The statements on a PostgreSQL pool, as named prepared statements. The claim is one
 * statement (data-modifying CTEs), so it is atomic without a transaction of its own; a second
 * worker's claim waits on the thread's row lock and then finds it held.
 * @param query runs a named statement of the pool and returns its rows.
 */
export function pgRunJobs(query: <R extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<{ rows: R[] }>): RunJobsSql {
  return {
    async job(id) {
      return (await query<JobRow>(JOB.replace("?", "$1"), [id])).rows[0] ?? null;
    },
    async claim(job, holder, now, ttlMs) {
      // The UTC times with no zone: a zone in the text of a timestamp without one is ignored.
      const at = (ms: number) => new Date(ms).toISOString().replace(/Z$/, "");
      const r = await query<{ claimed: number }>(
        `WITH j AS (SELECT "id" FROM "RunJob" WHERE "id" = $1 AND "status" <> 'done' FOR UPDATE),
         l AS (
           UPDATE "Thread" SET "leaseHolder" = $4, "leaseExpiresAt" = $5::timestamp(3), "updatedAt" = $7::timestamp(3)
           WHERE "id" = $2 AND "leaseRunId" = $3 AND ("leaseHolder" IS NULL OR "leaseExpiresAt" < $6::timestamp(3)) AND EXISTS (SELECT 1 FROM j)
           RETURNING "id"
         ),
         u AS (
           UPDATE "RunJob" SET "status" = 'claimed', "holder" = $4, "attempts" = "attempts" + 1, "updatedAt" = $7::timestamp(3)
           WHERE "id" = $1 AND EXISTS (SELECT 1 FROM l) RETURNING "id"
         ),
         r AS (UPDATE "Run" SET "status" = 'running' WHERE "id" = $3 AND EXISTS (SELECT 1 FROM l) RETURNING "id")
         SELECT (SELECT COUNT(*) FROM l)::int AS "claimed"`,
        [job.id, job.threadId, job.runId, holder, at(now + ttlMs), at(now), at(Date.now())],
      );
      return r.rows[0]?.claimed === 1;
    },
  };
}
