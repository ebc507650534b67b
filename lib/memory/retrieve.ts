import "server-only";
import { threadWorkspaceId } from "../auth/membership";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { Embedder } from "./embeddings";
import { searchFacts } from "./search";
import { recentEntries } from "./short-term";
import { FACTS_IN_CONTEXT, type MemoryFilters, type RetrievedMemory, SHORT_TERM_IN_CONTEXT } from "./types";

/** What {@link retrieve} looks for. */
export interface RetrieveInput {
  workspaceId: string;
  threadId: string;
  /** Usually the step's task; empty: the newest accepted facts. */
  query: string;
  /** The asking agent's role: facts for every role ("") or this one. */
  agentRole: string;
  filters?: MemoryFilters;
  embedder?: Embedder | null;
  /** Clock, ms since the epoch (default now): entries past their TTL are left out. */
  now?: number;
}

/**
 * What goes into an agent's context before a step (`retrieve(query, agent_role,
 * filters)`, docs/architecture.md#memory): the last {@link SHORT_TERM_IN_CONTEXT} (20) unexpired short-term entries of
 * the thread, oldest first, and the top {@link FACTS_IN_CONTEXT} (3) ACCEPTED facts of the
 * workspace for the role (lexical + semantic search, lib/memory/search.ts). Proposed facts
 * are never retrieved. Tenant isolation (docs/architecture.md#memory): every query is filtered by
 * `workspaceId`, and the thread must belong to that workspace.
 * @throws AppError not_found ("thread_not_found"); forbidden ("cross_workspace") when the
 *   thread belongs to another workspace.
 */
export async function retrieve(db: Db, input: RetrieveInput): Promise<RetrievedMemory> {
  const workspaceId = await threadWorkspaceId(db, input.threadId);
  if (workspaceId === null) throw new AppError("not_found", "thread_not_found", `No thread ${input.threadId}.`);
  if (workspaceId !== input.workspaceId) {
    throw new AppError("forbidden", "cross_workspace", "threadId: this thread belongs to another workspace; memory is never read across workspaces.");
  }
  const [shortTerm, facts] = await Promise.all([
    recentEntries(db, { threadId: input.threadId, workspaceId: input.workspaceId }, { limit: SHORT_TERM_IN_CONTEXT, ...(input.now !== undefined ? { now: input.now } : {}) }),
    searchFacts(db, {
      workspaceId: input.workspaceId,
      query: input.query,
      agentRole: input.agentRole,
      status: "accepted",
      limit: FACTS_IN_CONTEXT,
      ...(input.filters ? { filters: input.filters } : {}),
      ...(input.embedder ? { embedder: input.embedder } : {}),
    }),
  ]);
  return { shortTerm, facts };
}
