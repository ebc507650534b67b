import "server-only";
import type { MemoryEntry } from "../../generated/prisma/client";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { announce } from "./announce";
import { scrubFreedPages, secureDeleteOn } from "./scrub";
import { SHORT_TERM_IN_CONTEXT, SHORT_TERM_TTL_MS, type ShortTermEntry } from "./types";
import { prismaErrorCode } from "../db/prisma-error-code";

/**
 * Short-term memory (docs/architecture.md#memory): per-thread entries (timestamp, agent, action,
 * result) that live for a TTL (24 h by default) and are purged by the memory sweeper.
 */

/** Longest stored result, chars; longer ones are cut and end with "…". */
export const MAX_ENTRY_RESULT_CHARS = 2_000;

/** What {@link appendEntry} writes. */
export interface AppendInput {
  threadId: string;
  /** The thread's workspace (copied onto the row so that reads never cross tenants). */
  workspaceId: string;
  /** Idempotency key within the thread, e.g. "step:<stepId>:<tries>" or "tool:<toolCallId>". */
  key: string;
  agentId: string;
  action: string;
  result: string;
  stepId: string | null;
  /** Life of the entry, ms (default 24 h). */
  ttlMs?: number;
  /** Clock, ms since the epoch (default now). */
  now?: number;
}

function toEntry(row: MemoryEntry): ShortTermEntry {
  return {
    id: row.id,
    threadId: row.threadId,
    agentId: row.agentId,
    action: row.action,
    result: row.result,
    stepId: row.stepId,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

function cap(text: string): string {
  return text.length <= MAX_ENTRY_RESULT_CHARS ? text : `${text.slice(0, MAX_ENTRY_RESULT_CHARS - 1)}…`;
}

/**
 * Appends one entry to a thread's short-term memory (`append`). Idempotent per
 * (threadId, key): a node that LangGraph runs again after a crash gets the existing entry
 * back and nothing is written or published. The result is capped at
 * {@link MAX_ENTRY_RESULT_CHARS} chars. Publishes `memory.appended` (ids only, no content).
 * @throws AppError unprocessable ("invalid_ttl") when `ttlMs` is not a positive number of ms.
 */
export async function appendEntry(db: Db, input: AppendInput): Promise<ShortTermEntry> {
  const now = input.now ?? Date.now();
  const ttlMs = input.ttlMs ?? SHORT_TERM_TTL_MS;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new AppError("unprocessable", "invalid_ttl", "ttlMs: the life of an entry must be a positive number of ms.");
  const where = { threadId_key: { threadId: input.threadId, key: input.key } };
  const existing = await db.memoryEntry.findUnique({ where });
  if (existing) return toEntry(existing);
  let row: MemoryEntry;
  try {
    row = await db.memoryEntry.create({
      data: {
        threadId: input.threadId,
        workspaceId: input.workspaceId,
        key: input.key,
        agentId: input.agentId,
        action: input.action,
        result: cap(input.result),
        stepId: input.stepId,
        createdAt: new Date(now),
        expiresAt: new Date(now + ttlMs),
      },
    });
  } catch (err) {
    // Lost a race with the same key: the other writer's entry is the entry.
    if (prismaErrorCode(err) !== "P2002") throw err;
    return toEntry(await db.memoryEntry.findUniqueOrThrow({ where }));
  }
  await announce("memory.appended", input.threadId, { entryId: row.id, agentId: row.agentId, action: row.action, stepId: row.stepId }, now);
  return toEntry(row);
}

/**
 * The unexpired entries of a thread in its workspace: the last `limit` (oldest first).
 * Internal form of {@link readRecent} that also pins the workspace (tenant isolation: docs/architecture.md#memory).
 */
export async function recentEntries(db: Db, where: { threadId: string; workspaceId?: string }, opts: { limit?: number; now?: number } = {}): Promise<ShortTermEntry[]> {
  const limit = Math.max(0, Math.floor(opts.limit ?? SHORT_TERM_IN_CONTEXT));
  if (limit === 0) return [];
  const rows = await db.memoryEntry.findMany({
    where: { ...where, expiresAt: { gt: new Date(opts.now ?? Date.now()) } },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.reverse().map(toEntry);
}

/**
 * Reads a thread's recent short-term memory (`read_recent`): unexpired entries, the
 * last `limit` (default {@link SHORT_TERM_IN_CONTEXT} = 20), oldest first.
 * @param opts.now clock, ms since the epoch (default now).
 */
export async function readRecent(db: Db, threadId: string, opts: { limit?: number; now?: number } = {}): Promise<ShortTermEntry[]> {
  return recentEntries(db, { threadId }, opts);
}

/**
 * Clears a thread's short-term memory (`clear`): deletes every entry, writes a
 * Tombstone (kind short_term, the thread id, the actor, the count; no content), publishes
 * `memory.forgotten`, and scrubs the freed pages (see lib/memory/scrub.ts).
 * @throws AppError not_found when the thread does not exist.
 */
export async function clearShortTerm(db: Db, input: { threadId: string; actorId: string }): Promise<{ removed: number }> {
  const thread = await db.thread.findUnique({ where: { id: input.threadId }, select: { flow: { select: { workspaceId: true } } } });
  if (!thread) throw new AppError("not_found", "thread_not_found", `No thread ${input.threadId}.`);
  const workspaceId = thread.flow.workspaceId;
  await secureDeleteOn(db);
  const count = await db.$transaction(async (tx) => {
    const { count } = await tx.memoryEntry.deleteMany({ where: { threadId: input.threadId } });
    await tx.tombstone.create({ data: { kind: "short_term", subjectId: input.threadId, workspaceId, actorId: input.actorId, counts: JSON.stringify({ entries: count }) } });
    return count;
  });
  await scrubFreedPages(db, ["MemoryEntry"]);
  await announce("memory.forgotten", input.threadId, { kind: "short_term", subjectId: input.threadId, workspaceId, counts: { entries: count } });
  return { removed: count };
}

/**
 * Deletes every entry whose TTL has passed (the sweeper's job).
 * @param now clock, ms since the epoch (default now).
 * @returns how many entries were deleted.
 */
export async function purgeExpired(db: Db, now: number = Date.now()): Promise<number> {
  const { count } = await db.memoryEntry.deleteMany({ where: { expiresAt: { lte: new Date(now) } } });
  return count;
}
