import "server-only";
import { randomUUID } from "node:crypto";
import type { Db } from "../db/client";
import { prismaErrorCode } from "../db/prisma-error-code";
import { requireCapability } from "../auth/roles";
import { AppError } from "../errors";
import type { SessionUser } from "../http/with-user";
import { threadForErasure } from "../memory/access";
import { eraseThread } from "../memory/erase";
import { getAssistant } from "./assistants";
import { scopeOf } from "./caller";
import { parseMetadata } from "./metadata";
import { type PlatformThread, platformThread, resolveThread } from "./threads";

/**
 * Making, changing and deleting threads through the LangGraph Platform API
 * (docs/langgraph-api.md#threads).
 */

/** Input of {@link createApiThread}. */
export interface CreateThreadInput {
  /** A UUID; a new one when absent. */
  thread_id?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  /** raise (default): 409 when the id is taken; do_nothing: return the caller's existing thread. */
  if_exists?: "raise" | "do_nothing" | undefined;
}

const taken = (id: string) => new AppError("conflict", "thread_exists", `thread_id: a thread ${id} already exists; send another id, or if_exists: "do_nothing" to get your own thread back.`);

/**
 * Creates an API thread (an `ApiThread` row: the caller, their API key's workspace scope, the
 * metadata), which has no flow until its first run (docs/langgraph-api.md#threads). A
 * `metadata.graph_id` (or `assistant_id`) must name an assistant the caller sees.
 * @throws AppError not_found ("assistant_not_found") for a graph id the caller cannot see;
 *   conflict ("thread_exists") when the id is taken and `if_exists` is not "do_nothing", or
 *   is taken by a thread the caller cannot see (the same answer as for their own).
 */
export async function createApiThread(db: Db, user: SessionUser, input: CreateThreadInput): Promise<PlatformThread> {
  const metadata = input.metadata ?? {};
  for (const key of ["graph_id", "assistant_id"] as const) {
    const v = metadata[key];
    if (v !== undefined && v !== null) await getAssistant(db, user, String(v));
  }
  const id = input.thread_id ?? randomUUID();
  if (input.thread_id) {
    const exists = (await db.thread.count({ where: { id } })) + (await db.apiThread.count({ where: { id } })) > 0;
    if (exists) {
      if (input.if_exists !== "do_nothing") throw taken(id);
      // Someone else's thread answers as a taken id, never as theirs.
      const own = await resolveThread(db, user, id).catch(() => null);
      if (!own) throw taken(id);
      return platformThread(db, own);
    }
  }
  try {
    const row = await db.apiThread.create({ data: { id, userId: user.id, workspaceId: scopeOf(user), metadata: JSON.stringify(metadata) } });
    return platformThread(db, { kind: "api", row });
  } catch (err) {
    if (prismaErrorCode(err) === "P2002") throw taken(id);
    throw err;
  }
}

/**
 * Merges `metadata` into a thread's metadata (keys replaced, others kept). On one of our
 * Threads the caller needs the "run" capability (owners and approvers); `graph_id` and
 * `assistant_id` are not stored there (they always read as the thread's flow).
 * @throws AppError not_found (as resolveThread), forbidden ("role_forbidden": a viewer).
 */
export async function updateThreadMetadata(db: Db, user: SessionUser, threadId: string, metadata: Record<string, unknown>): Promise<PlatformThread> {
  const r = await resolveThread(db, user, threadId);
  if (r.kind === "api") {
    const row = await db.apiThread.update({ where: { id: r.row.id }, data: { metadata: JSON.stringify({ ...parseMetadata(r.row.metadata), ...metadata }) } });
    return platformThread(db, { kind: "api", row });
  }
  requireCapability(r.role, "run");
  const { graph_id: _g, assistant_id: _a, ...kept } = metadata;
  const thread = await db.thread.update({
    where: { id: r.thread.id },
    data: { metadata: JSON.stringify({ ...parseMetadata(r.thread.metadata), ...kept }) },
    include: { flow: true, flowVersion: true },
  });
  return platformThread(db, { kind: "thread", thread, role: r.role });
}

/**
 * Deletes a thread: one of our Threads is erased as the run view erases it
 * (lib/memory/erase.ts: its user or a workspace owner; 409 while a run holds its lease); an
 * API thread's row is deleted.
 * @param workspacesDir WORKSPACES_DIR, where the thread's files are removed.
 * @throws AppError not_found, forbidden ("thread_owner_only"), conflict ("run_in_progress").
 */
export async function deletePlatformThread(db: Db, user: SessionUser, threadId: string, workspacesDir: string): Promise<void> {
  const r = await resolveThread(db, user, threadId);
  if (r.kind === "api") {
    await db.apiThread.deleteMany({ where: { id: r.row.id } });
    return;
  }
  await threadForErasure(db, user.id, threadId);
  await eraseThread(db, { threadId, actorId: user.id, workspacesDir });
}
