import "server-only";
import type { Prisma } from "../../generated/prisma/client";
import type { Db } from "../db/client";
import { checkpointStoreFor } from "../db/checkpointer-stores";
import { dbUrlOf } from "../db/db-url";
import type { RunEventsSql } from "../db/run-events-sql";
import type { RunJobsSql } from "../db/run-jobs-sql";
import { claimLease, lapsedLeases, releaseLease, renewLease, takeLease } from "../db/lease";
import { isSqliteBusy, prismaErrorCode } from "../db/prisma-error-code";
import { endWaitingRuns } from "../db/waiting-runs";
import type { EventQuery, JobRecord, RunStore, StoredEvent } from "./store";

const eventColumns = { threadId: true, runId: true, seq: true, type: true, data: true } as const;

/** The Prisma filter of an {@link EventQuery}. */
export function eventWhere(q: EventQuery): Prisma.RunEventWhereInput {
  return {
    ...(q.threadId !== undefined ? { threadId: q.threadId } : {}),
    ...(q.runId !== undefined ? { runId: q.runId } : {}),
    ...(q.threadIds ? { threadId: { in: [...q.threadIds] } } : {}),
    ...(q.runIds ? { runId: { in: [...q.runIds] } } : {}),
    ...(q.afterSeq !== undefined ? { seq: { gt: q.afterSeq } } : {}),
    ...(q.types ? { type: { in: [...q.types] } } : {}),
    ...(q.dataContains !== undefined ? { data: { contains: q.dataContains } } : {}),
  };
}

/**
 * The driver's run-event statements for `db`'s database (lib/db/run-events-sql.ts), when `db`
 * is a root client with a known URL: a transaction's client has none, so its writes stay in
 * its transaction. Looked up per call: a closed driver store reopens on next use.
 */
function eventsSqlOf(db: Db): RunEventsSql | undefined {
  const url = dbUrlOf(db);
  return url === undefined ? undefined : checkpointStoreFor(url)?.runEvents?.();
}

/** The driver's job read and claim for `db`'s database (lib/db/run-jobs-sql.ts), as {@link eventsSqlOf}. */
function jobsSqlOf(db: Db): RunJobsSql | undefined {
  const url = dbUrlOf(db);
  return url === undefined ? undefined : checkpointStoreFor(url)?.runJobs?.();
}

/** A seq another writer took first (the driver path's answer; Prisma's is P2002). */
class SeqTaken extends Error {}

/**
 * The run store on the database (see store.ts): Run, RunJob and RunEvent rows and the
 * Thread's lease columns. `db` may be a transaction's client: every write then joins it.
 * Appends write the thread's next seq and rely on the (threadId, seq) unique key: a seq
 * taken meanwhile (P2002) is read again, SQLite busy past its timeout is retried after
 * 100 ms × attempt; 6 attempts in all.
 */
export function prismaRunStore(db: Db): RunStore {
  const lastSeq = async (client: Db, threadId: string) => {
    const sql = eventsSqlOf(client);
    if (sql) return sql.lastSeq(threadId);
    return (await client.runEvent.findFirst({ where: { threadId }, orderBy: { seq: "desc" }, select: { seq: true } }))?.seq ?? 0;
  };
  /** The last seq this store wrote per thread: a run's writer (the lease holder) reads it once. */
  const written = new Map<string, number>();
  /** Writes `write(seq)` with the thread's next seq, retrying a taken seq or a busy database. */
  const withNextSeq = async (threadId: string, write: (seq: number) => Promise<void>): Promise<number> => {
    for (let attempt = 0; ; attempt++) {
      const next = (written.get(threadId) ?? (await lastSeq(db, threadId))) + 1;
      try {
        await write(next);
        written.set(threadId, next);
        return next;
      } catch (err) {
        // A seq taken meanwhile: read the last one again. SQLite busy past its timeout: nothing
        // was written, so the same write is tried again after a pause.
        const busy = isSqliteBusy(err);
        if ((prismaErrorCode(err) !== "P2002" && !(err instanceof SeqTaken) && !busy) || attempt >= 5) throw err;
        if (busy) await new Promise((r) => setTimeout(r, 100 * (attempt + 1)));
        else written.delete(threadId);
      }
    }
  };
  /** Runs `fn` in a transaction, or in the one `db` already is. */
  const inTransaction = <T>(fn: (tx: Db) => Promise<T>): Promise<T> =>
    // A transaction's client has no $transaction of its own (read as a property: the client is a proxy).
    typeof (db as { $transaction?: unknown }).$transaction === "function" ? db.$transaction((tx) => fn(tx as unknown as Db), { timeout: 15_000, maxWait: 15_000 }) : fn(db);
  return {
    append: (e) =>
      withNextSeq(e.threadId, async (seq) => {
        const sql = eventsSqlOf(db);
        if (!sql) await db.runEvent.create({ data: { threadId: e.threadId, runId: e.runId, seq, type: e.type, data: e.data } });
        else if (!(await sql.insert({ threadId: e.threadId, runId: e.runId, seq, type: e.type, data: e.data }, new Date()))) throw new SeqTaken(`seq ${seq} of thread ${e.threadId} is taken`);
      }),
    lastSeq: (threadId) => lastSeq(db, threadId),
    async firstSeqOf(runId) {
      return (await db.runEvent.findFirst({ where: { runId }, orderBy: { seq: "asc" }, select: { seq: true } }))?.seq ?? null;
    },
    async events(q): Promise<StoredEvent[]> {
      // A follower's read (one thread, after a seq, maybe of one run, in seq order) on the driver.
      if (q.threadId !== undefined && q.runId !== null && !q.threadIds && !q.runIds && !q.types && q.dataContains === undefined && !q.newestFirst) {
        const sql = eventsSqlOf(db);
        if (sql) return sql.after(q.threadId, q.afterSeq ?? 0, q.take, q.runId);
      }
      return db.runEvent.findMany({ where: eventWhere(q), orderBy: { seq: q.newestFirst ? "desc" : "asc" }, ...(q.take !== undefined ? { take: q.take } : {}), select: eventColumns });
    },
    countEvents: (threadId) => db.runEvent.count({ where: { threadId } }),
    async latestOfEach(threadIds, types) {
      if (threadIds.length === 0) return [];
      const latest = await db.runEvent.groupBy({ by: ["threadId"], where: { threadId: { in: [...threadIds] }, type: { in: [...types] } }, _max: { seq: true } });
      const keys = latest.flatMap((g) => (g._max.seq === null ? [] : [{ threadId: g.threadId, seq: g._max.seq }]));
      return keys.length ? db.runEvent.findMany({ where: { OR: keys }, select: eventColumns }) : [];
    },
    async createRun(r) {
      return (await db.run.create({ data: { threadId: r.threadId, flowVersionId: r.flowVersionId, kind: r.kind, status: "queued" } })).id;
    },
    async createJob(j) {
      return (await db.runJob.create({ data: { runId: j.runId, threadId: j.threadId, requestedBy: j.requestedBy, input: j.input, startCheckpointId: j.startCheckpointId } })).id;
    },
    async job(by): Promise<JobRecord | null> {
      const sql = "id" in by ? jobsSqlOf(db) : undefined;
      if (sql && "id" in by) return sql.job(by.id);
      return db.runJob.findUnique({
        where: "id" in by ? { id: by.id } : { runId: by.runId },
        select: { id: true, runId: true, threadId: true, requestedBy: true, input: true, startCheckpointId: true, status: true, attempts: true, holder: true },
      });
    },
    async activeRun(threadId) {
      return (await db.run.findFirst({ where: { threadId, status: { in: ["queued", "running"] } }, orderBy: { startedAt: "desc" }, select: { id: true } }))?.id ?? null;
    },
    takeLease: (threadId, runId) => takeLease(db, threadId, runId),
    claim: (job, holder, now, ttlMs) =>
      jobsSqlOf(db)?.claim(job, holder, now, ttlMs) ??
      inTransaction(async (tx) => {
        const open = await tx.runJob.count({ where: { id: job.id, status: { not: "done" } } });
        if (open === 0 || !(await claimLease(tx, job.threadId, job.runId, holder, now, ttlMs))) return false;
        await tx.runJob.update({ where: { id: job.id }, data: { status: "claimed", holder, attempts: { increment: 1 } } });
        await tx.run.update({ where: { id: job.runId }, data: { status: "running" } });
        return true;
      }),
    heartbeat: (threadId, runId, holder, now, ttlMs) => renewLease(db, threadId, runId, holder, now, ttlMs),
    release: (threadId, runId) => releaseLease(db, threadId, runId),
    endRun: (end, final) =>
      withNextSeq(end.threadId, (seq) =>
        inTransaction(async (tx) => {
          await tx.run.update({
            where: { id: end.runId },
            data: { status: end.status, endedAt: new Date(end.endedAt), error: end.error, inputTokens: { increment: end.inputTokens }, outputTokens: { increment: end.outputTokens } },
          });
          // The earlier runs that stopped to wait on a person and whose work this run carried on
          // read how it ended (docs/runs.md "Runs that waited").
          await endWaitingRuns(tx, end.threadId, end.runId, end.status);
          await tx.thread.update({ where: { id: end.threadId }, data: { status: end.status } });
          await tx.runJob.update({ where: { id: end.jobId }, data: { status: "done" } });
          await tx.runEvent.create({ data: { threadId: end.threadId, runId: end.runId, seq, type: final.type, data: final.data } });
        }),
      ),
    lapsedLeases: (now, take) => lapsedLeases(db, now, take),
    async requeue(jobId, holder) {
      return (await db.runJob.updateMany({ where: { id: jobId, status: "claimed", holder }, data: { status: "queued", holder: null } })).count === 1;
    },
    async staleQueued(before, take) {
      return (await db.runJob.findMany({ where: { status: "queued", updatedAt: { lt: new Date(before) } }, take, select: { id: true } })).map((j) => j.id);
    },
    async touchQueued(jobId) {
      // updatedAt is @updatedAt: this write sets it to now.
      return (await db.runJob.updateMany({ where: { id: jobId, status: "queued" }, data: { holder: null } })).count === 1;
    },
    giveUp: (run) =>
      inTransaction(async (tx) => {
        await tx.run.update({ where: { id: run.runId }, data: { status: "interrupted", endedAt: new Date(run.endedAt), error: run.error } });
        await endWaitingRuns(tx, run.threadId, run.runId, "interrupted");
        await tx.runJob.update({ where: { id: run.jobId }, data: { status: "done" } });
        await tx.thread.updateMany({ where: { id: run.threadId, leaseRunId: run.runId }, data: { leaseRunId: null, leaseHolder: null, leaseExpiresAt: null } });
      }),
  };
}
