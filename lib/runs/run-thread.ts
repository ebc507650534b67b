import { retryWhileSqliteBusy } from "../db/busy-retry";
import "server-only";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { trace } from "@opentelemetry/api";
import { accessSqlOf } from "../db/checkpointer-stores";
import type { Db } from "../db/client";
import type { Role } from "../auth/roles";
import type { ResolvedAccess } from "../auth/membership";
import { expireChallenge } from "../approvals/service";
import { AppError, isAppError } from "../errors";
import { env } from "../env";
import { newTraceId } from "../events/bus";
import { prismaRunStore } from "./store-prisma";
import { approvalSecret } from "../engine/engine-deps";
import { checkRun, runInProgress } from "./run-checks";
import { readRunState } from "./read-state";
import { type RunDepsOverrides, runContext } from "./run-context";
import { executeJob, type JobOutcome } from "./run-execute";
import { type RunInput, resolveRunInput } from "./run-input";
import { withoutTypedTokens } from "./typed-tokens";
import type { RunChunk } from "../events/ui-parts";

export type { DecisionInput } from "./run-decision";
export type { RunInput } from "./run-input";

/** Options of {@link enqueueRun} and {@link prepareRun}. */
export interface PrepareRunOptions {
  db: Db;
  threadId: string;
  /** The signed-in user (or "system" for the expiry sweeper's internal input). */
  userId: string;
  /**
   * The requester's access to the thread, when the route wrapper already resolved it
   * (lib/http/with-user.ts `need`): the checks reuse its thread and role instead of reading
   * them again. Ignored unless it is `userId`'s access to `threadId`.
   */
  access?: ResolvedAccess;
  input: RunInput;
  /** Overrides of the engine's services (tests: scripted model, temp workspaces, clock). */
  deps?: RunDepsOverrides;
}

/** A run the server accepted: its row, its job, and where its events start. */
export interface AcceptedRun {
  runId: string;
  jobId: string;
  threadId: string;
  /** The thread's last RunEvent seq before this run: the run's events come after it. */
  afterSeq: number;
  /** The run's W3C trace id (32 hex chars): in its events, log lines, spans and run part. */
  traceId: string;
  /** The requester's role in the thread's workspace (null for the system's own input: an expiry). */
  role: Role | null;
}

/**
 * Accepts a run on a thread (docs/architecture.md#runs-jobs-and-leases): every check that can
 * refuse it runs first (see checkRun: 403, 404, 409), then ONE transaction creates the Run
 * row, takes the thread's lease (the loser of a race gets 409 run_in_progress and leaves no
 * row behind), applies a decision's conditional update on its approval, and stores the job
 * with its input, any live approval token typed into it redacted first
 * (lib/runs/typed-tokens.ts). A worker executes it; the request only follows its events.
 * @throws AppError with the status the route returns.
 */
export async function enqueueRun(opts: PrepareRunOptions): Promise<AcceptedRun> {
  const { db, threadId, userId } = opts;
  const now = opts.deps?.now ?? Date.now;
  const thread = await checkRun(db, threadId, opts.access?.userId === userId ? opts.access : userId, opts.input, now);
  await admit(db, thread.userId);
  // The state through the version's cached graph, no models or tools; a decision that changes
  // a call's arguments decides the edited call on the run's real services.
  const { ctx: read, snapshot } = await readRunState(db, thread, now);
  const edits = opts.input.kind === "decision" && (opts.input.decision === "edit" || opts.input.decision === "revise");
  const ctx = edits ? await runContext(db, thread, opts.deps) : read;
  const startCheckpointId = (snapshot.config.configurable?.checkpoint_id as string | undefined) ?? null;
  const secret = opts.deps?.approvalSecret ?? approvalSecret();
  // Before anything stores the input (the job, the checkpoints, the events): no live token
  // typed into it is kept (docs/security.md "Secrets at rest").
  const input = await withoutTypedTokens(db, secret, threadId, userId, opts.input);
  // The request's trace when it is traced, so the worker's run span joins it.
  const traceId = trace.getActiveSpan()?.spanContext().traceId ?? newTraceId();
  // SQLite may refuse the whole transaction when another connection wrote since it read
  // (SQLITE_BUSY_SNAPSHOT): it wrote nothing, so it is tried again from the start.
  return retryWhileSqliteBusy(() =>
    db.$transaction(
      async (txClient) => {
        const tx = txClient as unknown as Db;
        // The run's rows go through the run store, in this transaction (lib/runs/store.ts).
        const runs = prismaRunStore(tx);
        const run = { id: await runs.createRun({ threadId, flowVersionId: thread.flowVersionId, kind: input.kind === "message" ? "start" : "resume" }) };
        if (!(await runs.takeLease(threadId, run.id))) throw runInProgress();
        // The state read above must still be the thread's: a run that ended in between moved it.
        const latest = await tx.checkpoint.findFirst({ where: { threadId, checkpointNs: "" }, orderBy: { checkpointId: "desc" }, select: { checkpointId: true } });
        if ((latest?.checkpointId ?? null) !== startCheckpointId) throw new AppError("conflict", "thread_moved", "The thread changed while your request was accepted; reload it and try again.");
        const jobInput = await resolveRunInput({
          tx,
          threadId,
          userId,
          role: thread.role,
          input,
          status: thread.status,
          snapshot,
          ctx,
          flowHasAgent: (id) => ctx.doc.nodes.some((n) => n.type === "agent" && n.id === id),
          secret,
          now,
        });
        if (input.kind === "expired") await tx.approval.updateMany({ where: { id: input.approvalId }, data: { runNotifiedAt: new Date(now()) } });
        const jobId = await runs.createJob({ runId: run.id, threadId, requestedBy: userId, input: JSON.stringify({ ...jobInput, traceId }), startCheckpointId });
        await tx.thread.update({ where: { id: threadId }, data: { status: "running" } });
        return { runId: run.id, jobId, threadId, afterSeq: await runs.lastSeq(threadId), traceId, role: thread.role };
      },
      { timeout: 15_000, maxWait: 15_000 },
    ),
  ).catch(async (err: unknown) => {
    // The refusal rolled the transaction back; an expiry it found is a fact all the same.
    if (isAppError(err) && err.reason === "approval_expired" && input.kind === "decision") await expireChallenge({ db, now }, input.approvalId);
    throw err;
  });
}

/** A run accepted and executed by the caller itself (tests, benches, the expiry sweeper). */
export interface PreparedRun extends AcceptedRun {
  /** Executes the job in this process, yielding each chunk after it is stored. */
  stream(): AsyncGenerator<RunChunk, JobOutcome>;
}

/**
 * Accepts a run ({@link enqueueRun}) and hands back its execution to drive in this process,
 * through the same executeJob a worker uses. For callers without a worker: tests, benches.
 * @throws AppError as enqueueRun.
 */
export async function prepareRun(opts: PrepareRunOptions): Promise<PreparedRun> {
  const accepted = await enqueueRun(opts);
  return {
    ...accepted,
    stream: () => executeJob({ db: opts.db, jobId: accepted.jobId, workerId: newWorkerId("inline"), ...(opts.deps ? { deps: opts.deps } : {}) }),
  };
}

/** A worker id unique across hosts, processes and workers: `<role>:<host>:<pid>:<random>`. */
export function newWorkerId(role: string): string {
  return `${role}:${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

/**
 * Admission (docs/durability.md#admission): a request only accepts and enqueues, so what
 * bounds the load is how many runs may wait. Refuses with 429 when the deployment already has
 * MAX_QUEUED_RUNS waiting for a worker, or the thread's user MAX_ACTIVE_RUNS_PER_USER queued
 * or executing; the message says to retry shortly.
 * @throws AppError too_many_requests ("queue_full", "too_many_runs").
 */
async function admit(db: Db, ownerId: string): Promise<void> {
  const settings = env();
  // One statement on the driver for a root client (lib/db/access-sql.ts); in a transaction, Prisma.
  const counted = await accessSqlOf(db)?.admissionCounts(ownerId);
  const waiting = counted?.waiting ?? (await db.runJob.count({ where: { status: "queued" } }));
  if (waiting >= settings.MAX_QUEUED_RUNS) {
    throw new AppError("too_many_requests", "queue_full", `${waiting} runs are waiting for a worker; try again in a few seconds.`, { retryAfterSeconds: 5 });
  }
  const active = counted?.active ?? (await db.run.count({ where: { status: { in: ["queued", "running"] }, thread: { userId: ownerId } } }));
  if (active >= settings.MAX_ACTIVE_RUNS_PER_USER) {
    throw new AppError("too_many_requests", "too_many_runs", `This user already has ${active} runs going (the limit is ${settings.MAX_ACTIVE_RUNS_PER_USER}); wait for some to finish.`, {
      retryAfterSeconds: 5,
    });
  }
}
