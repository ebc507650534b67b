import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { wellFormedDeep } from "./well-formed";

/**
 * The writes every tool call makes, on the driver (docs/storage.md "Reads on the driver"): the
 * intent, committed before the call runs, the outcome after it returns
 * (lib/engine/tool-executions.ts), and the run's audit entries. A run of 100 tool calls made
 * 300 Prisma queries for the first two alone (~1 ms of CPU each here); these are prepared
 * statements. They run on the process's driver
 * connection per database (the checkpointer's, lib/db/checkpointer-stores.ts), each committed
 * on its own; lib/engine/tool-executions-prisma.ts uses them for a root client only and keeps
 * every other transition on Prisma. Rows are the ones Prisma writes: a unique id, strings
 * made well-formed Unicode as lib/db/client.ts does for every Prisma query, times in the form
 * Prisma stores (SQLite: ISO 8601 text with `+00:00`; PostgreSQL: `timestamp(3)` in UTC).
 */
export interface RunWritesSql {
  /**
   * Records the intent of a call's first attempt (status started, attempt 1, started at `at`).
   * @returns false when the thread already has a record for this call id (nothing written).
   */
  insertStarted(intent: IntentRow, at: number): Promise<boolean>;
  /** Records the outcome of a started `attempt` of the call (status completed; the key made well-formed as the intent's was); nothing when it is not started at that attempt. */
  finish(key: { threadId: string; toolCallId: string }, attempt: number, outcome: OutcomeRow, at: number): Promise<void>;
  /**
   * Appends a thread's audit entry, created now.
   * @returns false when the thread already has an entry with this `key` (nothing written; an entry without a key is always written).
   */
  audit(entry: AuditRow): Promise<boolean>;
}

/** An audit entry of a thread, as lib/engine/deps.ts writes it. */
export interface AuditRow {
  threadId: string;
  actorId: string | null;
  action: string;
  toolName: string | null;
  argsHash: string | null;
  /** JSON text. */
  detail: string;
  /** The entry's idempotency key, unique per thread; null for entries that may repeat. */
  key: string | null;
}

const AUDIT = `INSERT INTO "AuditEntry" ("id", "threadId", "actorId", "action", "toolName", "argsHash", "detail", "key", "createdAt")`;
const auditValues = (e: AuditRow) => {
  const w = wellFormedDeep(e);
  return [newId(), w.threadId, w.actorId, w.action, w.toolName, w.argsHash, w.detail, w.key];
};

/** A call's intent, recorded before it runs (lib/engine/tool-executions.ts `ToolCallIntent`). */
export interface IntentRow {
  threadId: string;
  /** The model's tool call id (unique per thread). */
  toolCallId: string;
  toolName: string;
  /** SHA-256 hex of the RFC 8785 canonical arguments that run. */
  argsHash: string;
  /** The approval that authorised the call; null when the policy allowed it. */
  approvalId: string | null;
  stepId: string | null;
  agentId: string;
}

/** A call's outcome: the gateway's status, the result as JSON text, the error code, ms. */
export interface OutcomeRow {
  status: string;
  result: string;
  errorCode: string | null;
  durationMs: number;
}

const INTENT = `"id", "threadId", "toolCallId", "toolName", "argsHash", "approvalId", "stepId", "agentId", "status", "attempt", "startedAt"`;
/** A row id: unique, as Prisma's cuid() default is (nothing reads its form). */
const newId = () => `x${randomUUID().replaceAll("-", "")}`;
const intentValues = (i: IntentRow) => {
  const w = wellFormedDeep(i);
  return [newId(), w.threadId, w.toolCallId, w.toolName, w.argsHash, w.approvalId, w.stepId, w.agentId];
};
const outcomeValues = (o: OutcomeRow) => {
  const w = wellFormedDeep(o);
  return [w.status, w.result, w.errorCode, Math.round(w.durationMs)];
};

/**
 * The statements on a better-sqlite3 connection.
 * @param stmt the connection's prepared-statement cache.
 * @param write runs a write, waiting asynchronously while another connection holds the lock.
 */
export function sqliteRunWrites(stmt: (sql: string) => Database.Statement, write: <T>(fn: () => T) => Promise<T>): RunWritesSql {
  const time = (ms: number) => new Date(ms).toISOString().replace(/Z$/, "+00:00");
  return {
    async insertStarted(intent, at) {
      const sql = `INSERT INTO "ToolExecution" (${INTENT}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'started', 1, ?) ON CONFLICT ("threadId", "toolCallId") DO NOTHING`;
      return (await write(() => stmt(sql).run(...intentValues(intent), time(at)))).changes === 1;
    },
    async finish(key, attempt, outcome, at) {
      const sql = `UPDATE "ToolExecution" SET "status" = 'completed', "endedAt" = ?, "outcome" = ?, "result" = ?, "errorCode" = ?, "durationMs" = ?
        WHERE "threadId" = ? AND "toolCallId" = ? AND "status" = 'started' AND "attempt" = ?`;
      const k = wellFormedDeep(key);
      await write(() => stmt(sql).run(time(at), ...outcomeValues(outcome), k.threadId, k.toolCallId, attempt));
    },
    async audit(entry) {
      const sql = `${AUDIT} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT ("threadId", "key") DO NOTHING`;
      return (await write(() => stmt(sql).run(...auditValues(entry), time(Date.now())))).changes === 1;
    },
  };
}

/**
 * The statements on a PostgreSQL pool, as named prepared statements.
 * @param query runs a named statement of the pool and returns its count.
 */
export function pgRunWrites(query: (text: string, values: unknown[]) => Promise<{ rowCount: number | null }>): RunWritesSql {
  // The UTC time with no zone: a zone in the text of a timestamp without one is ignored.
  const time = (ms: number) => new Date(ms).toISOString().replace(/Z$/, "");
  return {
    async insertStarted(intent, at) {
      const r = await query(`INSERT INTO "ToolExecution" (${INTENT}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'started', 1, $9::timestamp(3)) ON CONFLICT ("threadId", "toolCallId") DO NOTHING`, [
        ...intentValues(intent),
        time(at),
      ]);
      return r.rowCount === 1;
    },
    async finish(key, attempt, outcome, at) {
      await query(
        `UPDATE "ToolExecution" SET "status" = 'completed', "endedAt" = $1::timestamp(3), "outcome" = $2, "result" = $3, "errorCode" = $4, "durationMs" = $5
         WHERE "threadId" = $6 AND "toolCallId" = $7 AND "status" = 'started' AND "attempt" = $8`,
        [time(at), ...outcomeValues(outcome), wellFormedDeep(key.threadId), wellFormedDeep(key.toolCallId), attempt],
      );
    },
    async audit(entry) {
      const r = await query(`${AUDIT} VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::timestamp(3)) ON CONFLICT ("threadId", "key") DO NOTHING`, [...auditValues(entry), time(Date.now())]);
      return r.rowCount === 1;
    },
  };
}
