import "server-only";
import type { ApiThread } from "../../generated/prisma/client";
import type { Db } from "../db/client";
import type { Role } from "../auth/roles";
import { roleIn, type threadAccess } from "../auth/membership";
import { historyGraph } from "../engine/time-travel";
import { AppError } from "../errors";
import type { SessionUser } from "../http/with-user";
import { scopeOf } from "./caller";
import { type PlatformInterrupt, platformInterrupts, approvalIdsOf } from "./interrupts";
import { parseMetadata } from "./metadata";
import { approvalTickets } from "./approval-tickets";
import { type PlatformThreadStatus, platformThreadStatus } from "./status";
import { EMPTY_STATE, type PlatformThreadState, platformThreadState, platformValues } from "./thread-state";

/**
 * Threads of the LangGraph Platform API (docs/langgraph-api.md#threads): our Threads (bound
 * to a flow, made by the UI or by a first API run) and API threads (an `ApiThread` row, made
 * by `POST /threads` before any run; its first run turns it into a Thread with the same id).
 */

/** A thread with its flow and pinned version. */
export type ThreadRow = Awaited<ReturnType<typeof threadAccess>>["thread"];

/** A thread id resolved for a caller: one of our Threads with their role there, or one of their API threads. */
export type ResolvedThread = { kind: "thread"; thread: ThreadRow; role: Role } | { kind: "api"; row: ApiThread };

/** The Platform's Thread. */
export interface PlatformThread {
  thread_id: string;
  created_at: string;
  updated_at: string;
  state_updated_at: string;
  metadata: Record<string, unknown>;
  status: PlatformThreadStatus;
  values: Record<string, unknown>;
  interrupts: Record<string, PlatformInterrupt[]>;
  config: Record<string, never>;
  error?: string;
}

const notFound = (threadId: string) => new AppError("not_found", "thread_not_found", `No thread ${threadId}.`);

/**
 * The thread `threadId` as the caller may reach it: one of our Threads in a workspace they are
 * a member of (and, for a scoped API key, that workspace), or an API thread they made (a
 * scoped key: made in its workspace).
 * @throws AppError not_found ("thread_not_found") otherwise, alike for all other cases.
 */
export async function resolveThread(db: Db, user: SessionUser, threadId: string): Promise<ResolvedThread> {
  const scope = scopeOf(user);
  const thread = await db.thread.findUnique({ where: { id: threadId }, include: { flow: true, flowVersion: true } });
  if (thread) {
    const role = scope === null || scope === thread.flow.workspaceId ? await roleIn(db, user.id, thread.flow.workspaceId) : null;
    if (!role) throw notFound(threadId);
    return { kind: "thread", thread, role };
  }
  const row = await db.apiThread.findUnique({ where: { id: threadId } });
  if (!row || row.userId !== user.id || (scope !== null && row.workspaceId !== scope)) throw notFound(threadId);
  return { kind: "api", row };
}

/** A Thread's published metadata: what was stored, plus `graph_id` and `assistant_id` = its flow id. */
export function threadMetadata(thread: { metadata: string; flowId: string }): Record<string, unknown> {
  return { ...parseMetadata(thread.metadata), graph_id: thread.flowId, assistant_id: thread.flowId };
}

/** Compiled read-only graphs by flow version id, so a page of threads compiles each version once. */
export type GraphCache = Map<string, ReturnType<typeof historyGraph>["graph"]>;

function graphOf(db: Db, thread: ThreadRow, cache: GraphCache) {
  let graph = cache.get(thread.flowVersionId);
  if (!graph) {
    graph = historyGraph(db, thread.flowVersion.document).graph;
    cache.set(thread.flowVersionId, graph);
  }
  return graph;
}

/**
 * The state of a resolved thread at its latest checkpoint, or at `checkpointId`
 * (docs/langgraph-api.md#state): the thread's flow version compiled read-only with our
 * checkpointer (lib/engine/time-travel.ts historyGraph), mapped by lib/langgraph-api/thread-state.ts
 * with approval tokens only for a caller who may decide. An API thread's state is empty.
 * @throws AppError not_found ("checkpoint_not_found") when `checkpointId` names no checkpoint of the thread.
 */
export async function threadState(
  db: Db,
  r: ResolvedThread,
  checkpoint: { checkpoint_id?: string | undefined; checkpoint_ns?: string | undefined } = {},
  cache: GraphCache = new Map(),
): Promise<PlatformThreadState> {
  if (r.kind === "api") {
    if (checkpoint.checkpoint_id) throw new AppError("not_found", "checkpoint_not_found", `No checkpoint ${checkpoint.checkpoint_id} in thread ${r.row.id}: it has not run yet.`);
    return structuredClone(EMPTY_STATE);
  }
  const { thread, role } = r;
  const graph = graphOf(db, thread, cache);
  const snap = await graph.getState({
    configurable: {
      thread_id: thread.id,
      ...(checkpoint.checkpoint_id ? { checkpoint_id: checkpoint.checkpoint_id } : {}),
      ...(checkpoint.checkpoint_ns ? { checkpoint_ns: checkpoint.checkpoint_ns } : {}),
    },
  });
  // A checkpoint that does not exist reads as an empty snapshot echoing the asked config.
  if (checkpoint.checkpoint_id && (!snap.metadata || snap.config?.configurable?.checkpoint_id !== checkpoint.checkpoint_id)) {
    throw new AppError("not_found", "checkpoint_not_found", `No checkpoint ${checkpoint.checkpoint_id} in thread ${thread.id}.`);
  }
  const tickets = await approvalTickets(db, thread.id, role, approvalIdsOf(snap));
  return platformThreadState(thread.id, snap, tickets);
}

/** Options of {@link threadHistory}. */
export interface HistoryOptions {
  /** 1-1000. */
  limit: number;
  /** Only checkpoints older than this one. */
  before?: string | undefined;
  /** Only checkpoints whose metadata has these keys and values. */
  metadata?: Record<string, unknown> | undefined;
  /** Start from this checkpoint (and namespace) instead of the latest. */
  checkpoint?: { checkpoint_id?: string | undefined; checkpoint_ns?: string | undefined } | undefined;
}

/**
 * A thread's states, newest first (LangGraph `getStateHistory`), each as {@link threadState}
 * publishes it. An API thread has none.
 */
export async function threadHistory(db: Db, r: ResolvedThread, opts: HistoryOptions): Promise<PlatformThreadState[]> {
  if (r.kind === "api") return [];
  const { thread, role } = r;
  const graph = historyGraph(db, thread.flowVersion.document).graph;
  const config = {
    configurable: {
      thread_id: thread.id,
      ...(opts.checkpoint?.checkpoint_id ? { checkpoint_id: opts.checkpoint.checkpoint_id } : {}),
      ...(opts.checkpoint?.checkpoint_ns ? { checkpoint_ns: opts.checkpoint.checkpoint_ns } : {}),
    },
  };
  const snaps = [];
  const before = opts.before ? { before: { configurable: { thread_id: thread.id, checkpoint_id: opts.before } } } : {};
  for await (const s of graph.getStateHistory(config, { limit: opts.limit, ...before, ...(opts.metadata ? { filter: opts.metadata } : {}) })) snaps.push(s);
  const tickets = await approvalTickets(db, thread.id, role, [...new Set(snaps.flatMap(approvalIdsOf))]);
  return snaps.map((s) => platformThreadState(thread.id, s, tickets));
}

/**
 * A resolved thread as the Platform's Thread: our Thread with its status (lib/langgraph-api/status.ts),
 * latest values, pending interrupts by task id (tokens as {@link threadState}) and, when it
 * failed, its error; an API thread idle and empty, with its stored metadata.
 */
export async function platformThread(db: Db, r: ResolvedThread, cache: GraphCache = new Map()): Promise<PlatformThread> {
  if (r.kind === "api") {
    const at = r.row.updatedAt.toISOString();
    return {
      thread_id: r.row.id,
      created_at: r.row.createdAt.toISOString(),
      updated_at: at,
      state_updated_at: at,
      metadata: parseMetadata(r.row.metadata),
      status: "idle",
      values: {},
      interrupts: {},
      config: {},
    };
  }
  const { thread, role } = r;
  const snap = await graphOf(db, thread, cache).getState({ configurable: { thread_id: thread.id } });
  const tickets = await approvalTickets(db, thread.id, role, approvalIdsOf(snap));
  const values = (snap.values ?? {}) as Record<string, unknown>;
  const status = platformThreadStatus(thread);
  const err = values.error as { message?: unknown } | null | undefined;
  const at = thread.updatedAt.toISOString();
  return {
    thread_id: thread.id,
    created_at: thread.createdAt.toISOString(),
    updated_at: at,
    state_updated_at: at,
    metadata: threadMetadata(thread),
    status,
    values: platformValues(thread.id, values),
    interrupts: platformInterrupts(snap, tickets).byTask,
    config: {},
    ...(status === "error" && typeof err?.message === "string" ? { error: err.message } : {}),
  };
}
