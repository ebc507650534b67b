import "server-only";
import type { Db } from "../db/client";
import { type Caller, threadAccess } from "../auth/membership";
import { toFactView } from "./fact-view";
import { readRecent } from "./short-term";
import type { FactView, ShortTermEntry } from "./types";

/** What the run view shows of a thread's memory (docs/architecture.md#memory). */
export interface ThreadMemory {
  /** Unexpired short-term entries, oldest first (at most {@link THREAD_MEMORY_ENTRIES}). */
  entries: ShortTermEntry[];
  /** summarize(thread), or null until written. */
  summary: string | null;
  /** Facts proposed from this thread, waiting for a user to accept them. */
  proposed: FactView[];
}

/** Most short-term entries the thread view lists. */
export const THREAD_MEMORY_ENTRIES = 200;

/**
 * A thread's memory for any member of its workspace: short-term entries, summary, and the
 * facts still proposed from it (read with the thread's workspace id).
 * @param userId a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 * @throws AppError not_found when the thread does not exist or is in another workspace.
 */
export async function threadMemory(db: Db, userId: Caller, threadId: string, now: number = Date.now()): Promise<ThreadMemory> {
  const { thread } = await threadAccess(db, userId, threadId);
  const [entries, proposed] = await Promise.all([
    readRecent(db, threadId, { limit: THREAD_MEMORY_ENTRIES, now }),
    db.memoryFact.findMany({ where: { workspaceId: thread.flow.workspaceId, sourceThreadId: threadId, status: "proposed" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
  ]);
  return { entries, summary: thread.summary, proposed: proposed.map(toFactView) };
}
