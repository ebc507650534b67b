import "server-only";
import { randomBytes } from "node:crypto";
import { promises as fs } from "node:fs";
import path from "node:path";
import type { StateSnapshot } from "@langchain/langgraph";
import { type CheckpointMetadata, copyCheckpoint, uuid6 } from "@langchain/langgraph-checkpoint";
import { z } from "zod";
import { PrismaCheckpointSaver } from "../db/checkpointer";
import type { Db } from "../db/client";
import { leaseRunOf } from "../db/lease";
import { requireCapability } from "../auth/roles";
import { type Caller, callerId, threadAccess } from "../auth/membership";
import { env } from "../env";
import { AppError } from "../errors";
import { logger } from "../log";
import { prismaRunStore } from "./store-prisma";
import { workspaceDirFor } from "../tools/workspace";
import { stepView } from "../engine/emit";
import { blobPointers, forkChannelValues } from "../engine/fork-state";
import type { GraphStateValue } from "../engine/state";
import { type ForkedFromMeta, historyGraph } from "../engine/time-travel";
import { dataSchemas } from "../events/ui-parts";
import { displayTitle } from "../task-text";

/** Name of the run event a fork starts with (its run view's "forked from" banner). */
export const THREAD_FORKED = "thread_forked";

/** Payload of the fork's `thread_forked` run event: where it came from and what it copied. */
export const ForkedFromEvent = z.object({
  fromThreadId: z.string(),
  fromTitle: z.string(),
  /** The origin's checkpoint and its LangGraph step. */
  checkpointId: z.string(),
  step: z.number().int(),
  /** The fork's own first checkpoint (metadata source "fork"). */
  forkCheckpointId: z.string(),
  /** ISO-8601 time of the fork; the workspace files were copied as they were then. */
  at: z.string(),
  workspaceCopied: z.boolean(),
  /** Calls that waited on the origin's approvals; the fork's agent proposes them again. */
  dropped: z.array(z.object({ stepId: z.string(), tool: z.string().nullable(), approvalId: z.string().nullable() })),
  /** The copied state's chat messages (the last 50, tokens redacted). */
  messages: z.array(z.object({ role: z.string(), content: z.string() })),
  plan: dataSchemas.plan.nullable(),
});
export type ForkedFromEvent = z.infer<typeof ForkedFromEvent>;

/** Thread statuses a fork can start in (see {@link forkThread}). */
export type ForkStatus = "running" | "idle" | "completed" | "incomplete" | "failed" | "cancelled";

/** Options of {@link forkThread}. */
export interface ForkOptions {
  /** Base directory of the per-thread workspaces (default: WORKSPACES_DIR). */
  workspacesDir?: string;
}

/** What {@link forkThread} made. */
export interface ForkResult {
  threadId: string;
  status: ForkStatus;
  /** The fork's first checkpoint. */
  checkpointId: string;
  event: ForkedFromEvent;
}

/**
 * Forks a thread at one of its checkpoints ("Fork from here"; LangGraph's fork: a
 * copy of the checkpoint with metadata source "fork", no pending writes, so every task that
 * ran from it runs again). The new thread has the same flow version, title "Fork of …",
 * belongs to the user who forks, and records its origin (forkedFromThreadId/CheckpointId,
 * the checkpoint's `forked_from` metadata, a `thread_forked` run event and audit entry).
 * The origin thread is not changed.
 *
 * The checkpoint's values are rewritten by `forkChannelValues` (lib/engine/fork-state.ts):
 * the fork's own thread and user ids, approval-bound calls rewound so that the agent
 * proposes them again and a new challenge, bound to the fork, is asked (the origin's
 * challenges and tokens never decide anything here), tokens redacted, the time-limit clock
 * reset. Evicted outputs the state points to are copied. The workspace directory is copied
 * as it is now (not as it was at that checkpoint; files are not versioned).
 *
 * Status of the new thread: `running` when tasks are left to run from the checkpoint (no
 * run is active, so the run view offers "continue", the same input that resumes a run the
 * server stopped, lib/runs/run-thread.ts; a question or approval the checkpoint waited on
 * is asked again by that continue); otherwise the state's outcome: `cancelled`, `failed`,
 * `completed`, or `idle` when nothing had been said yet, where a message starts a new task
 * with the copied conversation.
 * @param who a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 * @param checkpointId a checkpoint id of the origin thread (LangGraph uuid6).
 * @throws AppError not_found (thread not in the user's workspaces, or "checkpoint_not_found"
 *   naming the checkpoint), forbidden (a role without "run", e.g. viewer).
 */
export async function forkThread(db: Db, who: Caller, threadId: string, checkpointId: string, opts: ForkOptions = {}): Promise<ForkResult> {
  const userId = callerId(who);
  const { thread, role } = await threadAccess(db, who, threadId);
  requireCapability(role, "run");
  // Checkpoints are immutable, but the origin's workspace files are not: copy them only while
  // no run owns the origin (docs/durability.md#the-lease).
  if (await leaseRunOf(db, threadId)) throw new AppError("conflict", "run_in_progress", "A run is going on this thread; fork it once the run has finished or paused.");
  const saver = new PrismaCheckpointSaver(db);
  const tuple = await saver.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId } });
  if (!tuple) throw new AppError("not_found", "checkpoint_not_found", `No checkpoint ${checkpointId} in thread ${threadId}.`);
  const { graph, flow } = historyGraph(db, thread.flowVersion.document);
  const originStep = tuple.metadata?.step ?? -1;
  const fork = await db.thread.create({
    data: {
      userId,
      flowId: thread.flowId,
      flowVersionId: thread.flowVersionId,
      title: displayTitle(`Fork of ${thread.title}`),
      status: "idle",
      forkedFromThreadId: threadId,
      forkedFromCheckpointId: checkpointId,
    },
  });
  const workspacesDir = opts.workspacesDir ?? env().WORKSPACES_DIR;
  try {
    const blobIds = await copyBlobs(db, threadId, fork.id, blobPointers(tuple.checkpoint.channel_values));
    const { values, dropped } = forkChannelValues(tuple.checkpoint.channel_values, { originThreadId: threadId, forkThreadId: fork.id, userId, blobIds });
    const step = originStep + 1;
    const checkpoint = { ...copyCheckpoint(tuple.checkpoint), id: uuid6(step), ts: new Date().toISOString(), channel_values: values };
    const forkedFrom: ForkedFromMeta = { thread_id: threadId, checkpoint_id: checkpointId, step: originStep };
    const metadata: CheckpointMetadata<{ forked_from: ForkedFromMeta }> = { source: "fork", step, parents: {}, forked_from: forkedFrom };
    // Every channel is written: the new thread has no blobs of earlier versions to point to.
    await saver.put({ configurable: { thread_id: fork.id, checkpoint_ns: "" } }, checkpoint, metadata, checkpoint.channel_versions);

    const snap = await graph.getState({ configurable: { thread_id: fork.id } });
    const state = snap.values as Partial<GraphStateValue>;
    const status = forkStatus(snap);
    const workspaceCopied = await copyTree(workspaceDirFor(workspacesDir, threadId), workspaceDirFor(workspacesDir, fork.id));
    const at = new Date().toISOString();
    const event: ForkedFromEvent = {
      fromThreadId: threadId,
      fromTitle: thread.title,
      checkpointId,
      step: originStep,
      forkCheckpointId: checkpoint.id,
      at,
      workspaceCopied,
      dropped,
      messages: (state.messages ?? []).slice(-50).map((m) => ({ role: m.role, content: String(m.content).slice(0, 4000) })),
      plan: state.plan ? { planId: state.plan.id, status: state.plan.status, steps: state.plan.steps.map((s) => stepView(flow, s)) } : null,
    };
    const droppedText = dropped.length ? `; calls waiting on the origin's approvals were dropped and will be proposed again: ${dropped.map((d) => d.tool ?? d.stepId).join(", ")}` : "";
    await db.$transaction(async (txClient) => {
      const tx = txClient as unknown as Db;
      // The fork's first event (seq 1): a thread event of no run.
      await prismaRunStore(tx).append({ threadId: fork.id, runId: null, type: THREAD_FORKED, data: JSON.stringify({ type: "event", name: THREAD_FORKED, payload: ForkedFromEvent.parse(event) }) });
      await tx.auditEntry.create({
        data: {
          threadId: fork.id,
          actorId: userId,
          action: THREAD_FORKED,
          detail: JSON.stringify({ at, detail: `Forked from thread ${threadId} at checkpoint ${checkpointId} (step ${originStep})${droppedText}.` }),
        },
      });
      await tx.thread.update({ where: { id: fork.id }, data: { status } });
    });
    return { threadId: fork.id, status, checkpointId: checkpoint.id, event };
  } catch (err) {
    // Nothing half-made stays behind; the error itself goes on to the caller.
    const cleanup = async () => {
      await saver.deleteThread(fork.id);
      await db.thread.delete({ where: { id: fork.id } });
      await fs.rm(workspaceDirFor(workspacesDir, fork.id), { recursive: true, force: true });
    };
    await cleanup().catch((e: unknown) => logger.error({ err: e, threadId, forkId: fork.id }, "fork: cleanup failed"));
    throw err;
  }
}

/** The fork's status from its first snapshot (see {@link forkThread}). */
function forkStatus(snap: StateSnapshot): ForkStatus {
  const v = snap.values as Partial<GraphStateValue>;
  if (snap.next.length > 0) return "running";
  if (v.plan?.status === "cancelled") return "cancelled";
  if (v.lifecycle === "FAILED") return "failed";
  if ((v.messages?.length ?? 0) === 0) return "idle";
  return v.intent !== "conversation" && v.plan?.status === "incomplete" ? "incomplete" : "completed";
}

/**
 * Copies the origin's evicted outputs that the state points to, under new ids (blob ids are
 * global; each thread reads only its own).
 * @returns origin blob id -> the fork's blob id.
 */
async function copyBlobs(db: Db, fromThreadId: string, toThreadId: string, ids: string[]): Promise<Map<string, string>> {
  const map = new Map<string, string>();
  if (ids.length === 0) return map;
  const rows = await db.evictedBlob.findMany({ where: { threadId: fromThreadId, id: { in: ids } } });
  for (const row of rows) {
    const id = randomBytes(12).toString("base64url");
    await db.evictedBlob.create({ data: { id, threadId: toThreadId, toolName: row.toolName, toolCallId: row.toolCallId, sizeChars: row.sizeChars, content: row.content } });
    map.set(row.id, id);
  }
  return map;
}

/**
 * Copies a workspace directory: regular files and folders; symlinks and special files are
 * skipped, as when workspaces are seeded (lib/tools/workspace.ts).
 * @returns false when the origin has no workspace yet (the fork's is then seeded on first use).
 */
async function copyTree(from: string, to: string): Promise<boolean> {
  try {
    if (!(await fs.lstat(from)).isDirectory()) return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw err;
  }
  await fs.mkdir(to, { recursive: true, mode: 0o700 });
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dest = path.join(to, entry.name);
    if (entry.isDirectory()) await copyTree(src, dest);
    else if (entry.isFile()) {
      await fs.copyFile(src, dest, fs.constants.COPYFILE_EXCL);
      await fs.chmod(dest, 0o600);
    }
  }
  return true;
}
