import type Database from "better-sqlite3";
import type pg from "pg";
import { Prisma } from "../../generated/prisma/client";
import { wellFormedDeep } from "./well-formed";
import type { Approval, Flow, FlowVersion, Thread } from "../../generated/prisma/client";

/**
 * The reads every run request makes, on the driver (docs/storage.md "Reads on the driver"):
 * a thread with its flow, pinned version and the caller's membership, an approval with the
 * decider's membership, a thread's workspace (memory's isolation), and the admission counts. Through Prisma 6.19 the first costs four
 * statements and ~2-3 ms of CPU (its query compiler keeps no plan); here each is one prepared
 * statement of tens of µs. They run on the process's driver connection per database (the
 * checkpointer's, lib/db/checkpointer-stores.ts), so they see committed rows only: a caller
 * inside a Prisma transaction uses Prisma (lib/auth/membership.ts decides).
 *
 * Rows come back as Prisma returns them: every scalar field of the model (the generated
 * `*ScalarFieldEnum`), `DateTime` fields as `Date` (SQLite stores ISO 8601 text, PostgreSQL
 * `timestamp(3)` in UTC, read here as epoch ms so the process's time zone cannot shift them).
 * `lib/db/access-sql.int.test.ts` compares each read with Prisma's on both databases.
 */
export interface AccessSql {
  /**
   * The thread with its flow and pinned flow version, and the role of `userId` in the flow's
   * workspace (null: not a member); `userId` null asks for the thread's own user's role. Null
   * when no such thread.
   */
  threadWithRole(threadId: string, userId: string | null): Promise<{ thread: ThreadWithFlow; role: string | null } | null>;
  /** The approval, its thread's workspace, and the role of `userId` there (null: not a member, or `userId` null). Null when no such approval. */
  approvalWithRole(approvalId: string, userId: string | null): Promise<{ approval: Approval; workspaceId: string; role: string | null } | null>;
  /** The workspace of the thread's flow; null when there is no such thread. */
  workspaceOf(threadId: string): Promise<string | null>;
  /** Admission: the jobs waiting for a worker, and the runs queued or running on threads of `ownerId`. */
  admissionCounts(ownerId: string): Promise<{ waiting: number; active: number }>;
}

/** A thread as `findUnique({ include: { flow: true, flowVersion: true } })` returns it. */
export type ThreadWithFlow = Thread & { flow: Flow; flowVersion: FlowVersion };

/** A model's scalar columns, and which of them are `DateTime`. */
interface Columns {
  names: readonly string[];
  dates: ReadonlySet<string>;
}

const columns = (fields: Record<string, string>, dates: string[]): Columns => ({ names: Object.values(fields), dates: new Set(dates) });
const THREAD = columns(Prisma.ThreadScalarFieldEnum, ["summarizedAt", "leaseExpiresAt", "createdAt", "updatedAt"]);
const FLOW = columns(Prisma.FlowScalarFieldEnum, ["createdAt", "updatedAt"]);
const VERSION = columns(Prisma.FlowVersionScalarFieldEnum, ["createdAt"]);
const APPROVAL = columns(Prisma.ApprovalScalarFieldEnum, ["createdAt", "expiresAt", "decidedAt", "consumedAt", "runNotifiedAt"]);

type Dialect = "sqlite" | "postgresql";

/** `alias."col" AS "alias.col"` for each column; PostgreSQL times as epoch ms (float8). */
function selectList(alias: string, c: Columns, dialect: Dialect): string {
  return c.names.map((n) => (dialect === "postgresql" && c.dates.has(n) ? `(EXTRACT(EPOCH FROM ${alias}."${n}") * 1000)::float8 AS "${alias}.${n}"` : `${alias}."${n}" AS "${alias}.${n}"`)).join(", ");
}

/** The model's fields out of a joined row, times as `Date`. */
function pick<T>(row: Record<string, unknown>, alias: string, c: Columns): T {
  const out: Record<string, unknown> = {};
  for (const n of c.names) {
    const v = row[`${alias}.${n}`];
    out[n] = c.dates.has(n) && v !== null && v !== undefined ? new Date(v as string | number) : v;
  }
  return out as T;
}

/** Runs one statement (`?` placeholders) and returns its rows. */
type All = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * The reads on a connection. Their ids come from URLs and bodies, so every parameter is made
 * well-formed Unicode without NUL first, as Prisma's are (lib/db/well-formed.ts): PostgreSQL
 * refuses a NUL in text with an error, where a lookup must simply find nothing.
 */
function accessSql(query: All, dialect: Dialect): AccessSql {
  const all: All = (sql, params) => query(sql, wellFormedDeep(params));
  const thread = `SELECT ${selectList("t", THREAD, dialect)}, ${selectList("f", FLOW, dialect)}, ${selectList("v", VERSION, dialect)}, m."role" AS "role"
    FROM "Thread" t JOIN "Flow" f ON f."id" = t."flowId" JOIN "FlowVersion" v ON v."id" = t."flowVersionId"
    LEFT JOIN "Membership" m ON m."workspaceId" = f."workspaceId" AND m."userId" = COALESCE(?, t."userId")
    WHERE t."id" = ?`;
  const approval = `SELECT ${selectList("a", APPROVAL, dialect)}, f."workspaceId" AS "workspaceId", m."role" AS "role"
    FROM "Approval" a JOIN "Thread" t ON t."id" = a."threadId" JOIN "Flow" f ON f."id" = t."flowId"
    LEFT JOIN "Membership" m ON m."workspaceId" = f."workspaceId" AND m."userId" = ?
    WHERE a."id" = ?`;
  const counts = `SELECT (SELECT COUNT(*) FROM "RunJob" WHERE "status" = 'queued') AS "waiting",
    (SELECT COUNT(*) FROM "Run" r JOIN "Thread" t ON t."id" = r."threadId" WHERE r."status" IN ('queued', 'running') AND t."userId" = ?) AS "active"`;
  return {
    async threadWithRole(threadId, userId) {
      const [row] = await all(thread, [userId, threadId]);
      if (!row) return null;
      const t = pick<Thread>(row, "t", THREAD);
      return { thread: { ...t, flow: pick<Flow>(row, "f", FLOW), flowVersion: pick<FlowVersion>(row, "v", VERSION) }, role: (row.role as string | null) ?? null };
    },
    async approvalWithRole(approvalId, userId) {
      const [row] = await all(approval, [userId, approvalId]);
      if (!row) return null;
      return { approval: pick<Approval>(row, "a", APPROVAL), workspaceId: row.workspaceId as string, role: (row.role as string | null) ?? null };
    },
    async workspaceOf(threadId) {
      const [row] = await all(`SELECT f."workspaceId" AS "workspaceId" FROM "Thread" t JOIN "Flow" f ON f."id" = t."flowId" WHERE t."id" = ?`, [threadId]);
      return (row?.workspaceId as string | undefined) ?? null;
    },
    async admissionCounts(ownerId) {
      const [row] = await all(counts, [ownerId]);
      return { waiting: Number(row?.waiting ?? 0), active: Number(row?.active ?? 0) };
    },
  };
}

/**
 * The reads on a better-sqlite3 connection.
 * @param stmt the connection's prepared-statement cache.
 */
export function sqliteAccess(stmt: (sql: string) => Database.Statement): AccessSql {
  return accessSql(async (sql, params) => stmt(sql).all(...params) as Record<string, unknown>[], "sqlite");
}

/**
 * The reads on a PostgreSQL pool, as named prepared statements.
 * @param query runs a named statement of the pool and returns its rows.
 */
export function pgAccess(query: <R extends pg.QueryResultRow>(text: string, values: unknown[]) => Promise<{ rows: R[] }>): AccessSql {
  const numbered = new Map<string, string>();
  const toPg = (sql: string) => {
    let text = numbered.get(sql);
    if (text === undefined) {
      let i = 0;
      text = sql.replace(/\?/g, () => `$${++i}`);
      numbered.set(sql, text);
    }
    return text;
  };
  return accessSql(async (sql, params) => (await query<Record<string, unknown>>(toPg(sql), params)).rows, "postgresql");
}
