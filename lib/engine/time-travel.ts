import "server-only";
import type { StateSnapshot } from "@langchain/langgraph";
import type { Db } from "../db/client";
import { type Caller, threadAccess } from "../auth/membership";
import { AppError } from "../errors";
import { stepView } from "./emit";
import type { PhylacteryGraph } from "./graph";
import { flowGraph } from "./graph-cache";
import type { FlowSpec } from "../flow/compile";
import { redactSecrets, type StateSummary, summarizeState } from "./safe-state";
import type { GraphStateValue } from "./state";
import type { RunDataTypes } from "../events/ui-parts";

/**
 * Time travel, the reading side (LangGraph `getStateHistory` / `getState` with a
 * checkpoint config): a thread's checkpoints newest first, and the state at one of them,
 * with approval tokens and secrets removed (lib/engine/safe-state.ts). Forks are made by
 * lib/runs/fork-thread.ts.
 */

/** Where a fork came from, as its first checkpoint's metadata records it (`forked_from`). */
export interface ForkedFromMeta {
  thread_id: string;
  checkpoint_id: string;
  step: number;
}

/** Checkpoint sources (LangGraph CheckpointMetadata.source). */
export type CheckpointSource = "input" | "loop" | "update" | "fork";

/** One row of the checkpoint list. */
export interface CheckpointEntry {
  checkpointId: string;
  parentId: string | null;
  /** ISO-8601. */
  createdAt: string | null;
  /** LangGraph superstep (-1 = the input checkpoint). */
  step: number;
  source: CheckpointSource;
  /** Nodes whose writes made this checkpoint: the tasks of its parent ("__input__" for an input). */
  writers: string[];
  /** Nodes that run next from here (one entry per task; parallel branches repeat a name). */
  next: string[];
  summary: StateSummary & { currentAgentName: string | null };
  /** Set on a fork's first checkpoint. */
  forkedFrom: ForkedFromMeta | null;
}

/** The state at one checkpoint, safe to show. */
export interface CheckpointState extends CheckpointEntry {
  /** The plan with each step's agent name and status (the run view's plan shape). */
  plan: RunDataTypes["plan"] | null;
  /** Interrupt payloads pending at this checkpoint (approval requests, questions). */
  interrupts: unknown[];
  /** Every state channel (plan, branches, messages, audit trail...), secrets redacted. */
  values: Record<string, unknown>;
}

/** Options of {@link listCheckpoints}. */
export interface ListOptions {
  /** Page size, 1-500 (default 100). */
  limit?: number;
  /** Only checkpoints older than this id (the previous page's `nextBefore`). */
  before?: string;
}

/**
 * The compiled graph of a flow version, for reading checkpoints (`next` and `tasks` need the
 * graph's channels and nodes), from the cache of compiled flow versions
 * (lib/engine/graph-cache.ts): its services refuse every call, nothing runs through it.
 * @throws AppError unprocessable when the flow document no longer compiles.
 */
export function historyGraph(db: Db, document: string): { graph: PhylacteryGraph; flow: FlowSpec } {
  const { graph, flow } = flowGraph(db, document);
  return { graph, flow };
}

/** The checkpoint id a config names, or null. */
const idIn = (c: { configurable?: Record<string, unknown> } | undefined): string | null => (c?.configurable?.checkpoint_id as string | undefined) ?? null;
const interruptsOf = (s: StateSnapshot): unknown[] => s.tasks.flatMap((t) => t.interrupts.map((i) => i.value));

/** A snapshot as a list row; `parent` is the snapshot of its parent checkpoint when known. */
function entryOf(s: StateSnapshot, parent: StateSnapshot | undefined, flow: FlowSpec): CheckpointEntry {
  const meta = (s.metadata ?? {}) as { source?: CheckpointSource; step?: number; forked_from?: ForkedFromMeta };
  const source = meta.source ?? "loop";
  const writers = source === "input" ? ["__input__"] : source === "fork" ? [] : parent ? [...new Set(parent.tasks.map((t) => t.name))] : [];
  const summary = summarizeState(s.values as Partial<GraphStateValue>, interruptsOf(s));
  const agentId = summary.plan?.current?.agentId;
  return {
    checkpointId: idIn(s.config) ?? "",
    parentId: idIn(s.parentConfig),
    createdAt: s.createdAt ?? null,
    step: meta.step ?? 0,
    source,
    writers,
    next: [...s.next],
    summary: { ...summary, currentAgentName: agentId ? (flow.agents.find((a) => a.id === agentId)?.name ?? agentId) : null },
    forkedFrom: meta.forked_from ?? null,
  };
}

/**
 * A thread's checkpoints, newest first (LangGraph `getStateHistory`): id, parent, time,
 * step, source, the nodes that wrote it and the nodes that run next, and a summary.
 * @param userId a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 * @param opts.limit page size 1-500 (default 100); `opts.before` pages on from a checkpoint id.
 * @returns the page, and `nextBefore` (the id to pass as `before` for the next page) or null.
 * @throws AppError not_found when the thread is not in one of the user's workspaces.
 */
export async function listCheckpoints(db: Db, userId: Caller, threadId: string, opts: ListOptions = {}): Promise<{ checkpoints: CheckpointEntry[]; nextBefore: string | null }> {
  const { thread } = await threadAccess(db, userId, threadId);
  const limit = Math.min(Math.max(opts.limit ?? 100, 1), 500);
  const { graph, flow } = historyGraph(db, thread.flowVersion.document);
  const config = { configurable: { thread_id: threadId } };
  const before = opts.before ? { before: { configurable: { thread_id: threadId, checkpoint_id: opts.before } } } : {};
  const snaps: StateSnapshot[] = [];
  // One more than the page: the extra one is the last row's parent (its writers).
  for await (const s of graph.getStateHistory(config, { limit: limit + 1, ...before })) snaps.push(s);
  const page = snaps.slice(0, limit);
  const byId = new Map(snaps.map((s) => [idIn(s.config), s]));
  const checkpoints = page.map((s) => entryOf(s, byId.get(idIn(s.parentConfig)), flow));
  return { checkpoints, nextBefore: snaps.length > limit ? (checkpoints.at(-1)?.checkpointId ?? null) : null };
}

/**
 * The state at one checkpoint of a thread (LangGraph `getState` with `checkpoint_id`), safe to
 * show: every channel with approval tokens and secrets redacted, the plan in the run view's
 * shape, the pending interrupts and the nodes that run next.
 * @param userId a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 * @throws AppError not_found when the thread is not the user's to see ("thread_not_found")
 *   or has no checkpoint with that id ("checkpoint_not_found", naming it).
 */
export async function stateAt(db: Db, userId: Caller, threadId: string, checkpointId: string): Promise<CheckpointState> {
  const { thread } = await threadAccess(db, userId, threadId);
  const { graph, flow } = historyGraph(db, thread.flowVersion.document);
  const snap = await graph.getState({ configurable: { thread_id: threadId, checkpoint_id: checkpointId } });
  if (!snap.metadata || idIn(snap.config) !== checkpointId) {
    throw new AppError("not_found", "checkpoint_not_found", `No checkpoint ${checkpointId} in thread ${threadId}.`);
  }
  const parent = snap.parentConfig ? await graph.getState(snap.parentConfig) : undefined;
  const values = snap.values as GraphStateValue;
  const plan = values.plan ? { planId: values.plan.id, status: values.plan.status, steps: values.plan.steps.map((s) => stepView(flow, s)) } : null;
  return {
    ...entryOf(snap, parent, flow),
    plan: plan ? redactSecrets(plan) : null,
    interrupts: redactSecrets(interruptsOf(snap)),
    values: redactSecrets(snap.values as Record<string, unknown>),
  };
}
