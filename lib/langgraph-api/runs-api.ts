import "server-only";
import { after } from "next/server";
import type { Db } from "../db/client";
import { type Caller, type ResolvedAccess, threadAccess } from "../auth/membership";
import type { AcceptedRun } from "../runs/run-thread";
import { AppError } from "../errors";
import type { SessionUser } from "../http/with-user";
import { cancelRunJob } from "../runs/cancel-run";
import { acceptPlatformRun } from "./accept-run";
import type { RunBody, StreamMode } from "./run-body";
import { platformRunStream, type StateReader } from "./run-stream";
import { isRunActive, platformRun } from "./run-view";
import { threadStateReader } from "./thread-state-reader";

/** Where the LangGraph API lives, relative to which its clients resolve `Location` headers. */
const API_ROOT = "/api/langgraph";

/** `Content-Location` of a run, as the SDK parses it (`/threads/<id>/runs/<id>`). */
export const runLocation = (threadId: string, runId: string): string => `${API_ROOT}/threads/${threadId}/runs/${runId}`;

/**
 * Accepts a run like {@link acceptPlatformRun}, and when a decision comes too late (its
 * challenge expired) tells the waiting run right after answering 410, as the run view does.
 */
export async function acceptRun(db: Db, user: SessionUser, threadId: string, body: RunBody): Promise<AcceptedRun & { access?: ResolvedAccess }> {
  return acceptPlatformRun(db, user, threadId, body, (work) => after(() => work().then(() => undefined)));
}

/**
 * A run of a thread the user may see, with its flow id.
 * @param userId a user id, or the caller's access already resolved in this request (lib/auth/membership.ts `Caller`: no query).
 * @throws AppError not_found.
 */
export async function runOf(db: Db, userId: Caller, threadId: string, runId: string) {
  const { thread, role } = await threadAccess(db, userId, threadId);
  const run = await db.run.findFirst({ where: { id: runId, threadId }, include: { job: { select: { startCheckpointId: true } } } });
  if (!run) throw new AppError("not_found", "run_not_found", `No run ${runId} in thread ${threadId}.`);
  return { run, thread, role };
}

/** The Platform Run object of a run row. `userId`: a user id, or the caller's access already resolved in this request (lib/auth/membership.ts `Caller`). */
export async function runResponse(db: Db, userId: Caller, threadId: string, runId: string, status = 200): Promise<Response> {
  const { run, thread } = await runOf(db, userId, threadId, runId);
  return Response.json(platformRun(run, thread.flowId), { status, headers: { "content-location": runLocation(threadId, runId) } });
}

/** Waits until a run has ended (polls its row every `pollMs`, default 250 ms) or `signal` aborts. */
export async function waitForRun(db: Db, runId: string, signal: AbortSignal, pollMs = 250): Promise<string> {
  for (;;) {
    const run = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
    if (!run) throw new AppError("not_found", "run_not_found", `No run ${runId}.`);
    if (!isRunActive(run.status) || signal.aborted) return run.status;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/**
 * What `runs.wait` and `runs.join` answer (docs/langgraph-api.md#runs): the thread's state
 * values after the run, with `__interrupt__` when it waits on a person, and `__error__`
 * `{ error, message }` when it failed (the SDK raises it).
 */
export async function finalValues(db: Db, reader: StateReader, runId: string): Promise<Record<string, unknown>> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { status: true, error: true } });
  const latest = await reader.latest();
  const values = reader.values(latest);
  if (run?.status === "awaiting_approval" || run?.status === "awaiting_input") return { ...values, __interrupt__: await reader.interrupts(latest) };
  if (run?.status === "failed" || run?.status === "interrupted") return { ...values, __error__: { error: "RunFailed", message: run.error ?? "The run failed." } };
  return values;
}

/** Options of {@link streamRun}. */
export interface StreamRunOptions {
  db: Db;
  userId: string;
  threadId: string;
  runId: string;
  afterSeq: number;
  /** State events are those written after this checkpoint (null: every one; "latest": from now on). */
  startCheckpointId: string | null | "latest";
  modes: Set<StreamMode>;
  signal: AbortSignal;
  view: (thread: Awaited<ReturnType<typeof threadAccess>>) => Pick<StateReader, "values" | "interrupts">;
  cancelOnDisconnect: boolean;
}

/** A run's Platform stream for this caller, with the headers the SDK reads (run id, reconnect path). */
export async function streamRun(o: StreamRunOptions): Promise<Response> {
  const access = await threadAccess(o.db, o.userId, o.threadId);
  const reader = threadStateReader(o.db, access.thread, o.view(access));
  const location = runLocation(o.threadId, o.runId);
  const startCheckpointId = o.startCheckpointId === "latest" ? ((await reader.latest()).config?.configurable?.checkpoint_id ?? null) : o.startCheckpointId;
  return platformRunStream({
    db: o.db,
    threadId: o.threadId,
    runId: o.runId,
    afterSeq: o.afterSeq,
    startCheckpointId,
    modes: o.modes,
    reader,
    signal: o.signal,
    ...(o.cancelOnDisconnect ? { onDisconnect: () => cancelRun(o.db, o.userId, o.threadId, o.runId).then(() => undefined) } : {}),
    // `Location` is relative to the API root: the SDK reconnects to `${apiUrl}${Location}`.
    headers: { "content-location": location, location: `/threads/${o.threadId}/runs/${o.runId}/stream` },
  });
}

/**
 * Cancels a run that has not ended (docs/langgraph-api.md#runs, docs/durability.md#cancel): a
 * queued run ends at once as cancelled; an executing run's worker stops it at its next
 * heartbeat (within a third of the lease TTL, about 3 s) and ends it as cancelled, with its
 * final part stored and published like any run's end (followers and webhooks see it).
 * @throws AppError not_found, forbidden (a viewer), conflict ("run_not_active": it already ended).
 */
export async function cancelRun(db: Db, userId: string, threadId: string, runId: string): Promise<void> {
  const { run, role } = await runOf(db, userId, threadId, runId);
  if (role === "viewer") throw new AppError("forbidden", "role_forbidden", "Your role in this workspace is viewer; it cannot cancel runs.");
  const outcome = isRunActive(run.status) ? await cancelRunJob(db, threadId, runId) : "not_active";
  if (outcome === "not_active") throw new AppError("conflict", "run_not_active", `Run ${runId} has already ended (${run.status}); there is nothing to cancel.`);
}
