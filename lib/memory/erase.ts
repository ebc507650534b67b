import "server-only";
import { promises as fs } from "node:fs";
import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import { takeLease } from "../db/lease";
import { AppError } from "../errors";
import { prismaRunStore } from "../runs/store-prisma";
import { workspaceDirFor } from "../tools/workspace";
import { announce } from "./announce";
import { scrubFreedPages, secureDeleteOn } from "./scrub";

/**
 * Erases a thread (right to erasure: docs/architecture.md#memory): in one transaction its
 * LangGraph checkpoints, checkpoint blobs and pending writes (keyed by thread id, no foreign
 * key), the facts still "proposed" from it, and the thread row, whose deletion cascades to
 * its runs, run events, approvals, audit entries, evicted blobs and short-term memory; then
 * its workspace directory. Accepted facts stay, keeping the thread and step ids of their
 * provenance. A Tombstone (kind thread, the thread id, the actor, the time and the counts;
 * no content) records it and `memory.forgotten` announces it. Freed pages hold no old
 * content afterwards: secure_delete is on and a WAL database is checkpointed and truncated.
 * @param input.workspacesDir the directory holding every thread's workspace (WORKSPACES_DIR).
 * @returns the rows (and directories) removed, by kind, e.g. { checkpoints: 12, events: 40, ... }.
 * @throws AppError not_found ("thread_not_found"); conflict ("run_in_progress") while a run
 *   streams on the thread.
 */
export async function eraseThread(db: Db, input: { threadId: string; actorId: string; workspacesDir: string }): Promise<Record<string, number>> {
  const { threadId } = input;
  const thread = await db.thread.findUnique({ where: { id: threadId }, select: { id: true, flow: { select: { workspaceId: true } } } });
  if (!thread) throw new AppError("not_found", "thread_not_found", `No thread ${threadId}.`);
  const workspaceId = thread.flow.workspaceId;
  const dir = workspaceDirFor(input.workspacesDir, threadId);
  await secureDeleteOn(db);
  const counts = await db.$transaction(async (tx) => {
    // The erasure takes the thread's lease first, in its own transaction: a run that owns the
    // thread (queued or executing, in any process) makes it 409, and no run can start while
    // the rows go (docs/durability.md#the-lease).
    if (!(await takeLease(tx, threadId, `erase:${randomUUID()}`)))
      throw new AppError("conflict", "run_in_progress", "A run is going on this thread; wait for it to finish before deleting the thread.");
    const byThread = { where: { threadId } };
    const c: Record<string, number> = {
      runs: await tx.run.count(byThread),
      events: await prismaRunStore(tx as unknown as Db).countEvents(threadId),
      approvals: await tx.approval.count(byThread),
      auditEntries: await tx.auditEntry.count(byThread),
      evictedBlobs: await tx.evictedBlob.count(byThread),
      shortTermEntries: await tx.memoryEntry.count(byThread),
      checkpoints: (await tx.checkpoint.deleteMany(byThread)).count,
      checkpointBlobs: (await tx.checkpointBlob.deleteMany(byThread)).count,
      checkpointWrites: (await tx.checkpointWrite.deleteMany(byThread)).count,
      proposedFacts: (await tx.memoryFact.deleteMany({ where: { workspaceId, sourceThreadId: threadId, status: "proposed" } })).count,
    };
    await tx.thread.delete({ where: { id: threadId } });
    c.threads = 1;
    return c;
  });
  let workspaceDirs = 0;
  try {
    await fs.stat(dir);
    workspaceDirs = 1;
  } catch {
    // never created
  }
  await fs.rm(dir, { recursive: true, force: true });
  counts.workspaceDirs = workspaceDirs;
  await db.tombstone.create({ data: { kind: "thread", subjectId: threadId, workspaceId, actorId: input.actorId, counts: JSON.stringify(counts) } });
  await scrubFreedPages(db);
  await announce("memory.forgotten", threadId, { kind: "thread", subjectId: threadId, workspaceId, counts });
  return counts;
}
