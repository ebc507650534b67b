import "server-only";
import type { MemoryFact } from "../../generated/prisma/client";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { announce } from "./announce";
import type { Embedder } from "./embeddings";
import { cleanContent, cleanTags, contentHash, MAX_TAGS, tagsOf, toFactView } from "./fact-view";
import { scrubFreedPages, secureDeleteOn } from "./scrub";
import { searchFacts } from "./search";
import type { FactOrigin, FactStatus, FactView } from "./types";
import { logger } from "../log";
import { prismaErrorCode } from "../db/prisma-error-code";

export { searchFacts } from "./search";

/**
 * Long-term memory (docs/architecture.md#memory): facts of a workspace with their provenance.
 * `upsert_fact`, `forget` (right to erasure) and the accept step of promoted facts;
 * `search` lives in lib/memory/search.ts.
 */

/** Longest agent role, chars. */
const MAX_ROLE_CHARS = 64;

/** What {@link upsertFact} stores. */
export interface UpsertFactInput {
  workspaceId: string;
  /** Trimmed; 1..2,000 chars. */
  content: string;
  /** Lower-cased, de-duplicated; at most 10. */
  tags?: string[];
  /** The agent role the fact is for; "" or absent: every role. */
  agentRole?: string;
  origin: FactOrigin;
  /** Default "accepted". */
  status?: FactStatus;
  /** Provenance: the thread and plan step it came from. */
  source?: { threadId: string | null; stepId: string | null };
  createdById?: string | null;
  /** When given, the fact's vector is computed and stored (a failing server stores none). */
  embedder?: Embedder | null;
}

async function embedOne(embedder: Embedder | null | undefined, content: string): Promise<{ embedding: string; embeddingModel: string } | null> {
  if (!embedder) return null;
  try {
    const [v] = await embedder.embed([content]);
    return v ? { embedding: JSON.stringify(v), embeddingModel: embedder.modelId } : null;
  } catch (err) {
    logger.warn({ err, model: embedder.modelId }, "memory: embedding failed; the fact is stored without a vector");
    return null;
  }
}

function cleanRole(role: string | undefined): string {
  const r = (role ?? "").trim();
  if (r.length > MAX_ROLE_CHARS) throw new AppError("unprocessable", "invalid_agent_role", `agentRole: at most ${MAX_ROLE_CHARS} characters.`);
  return r;
}

/** Merges a restated fact into its row: tags united, proposed -> accepted when stated as accepted, roles widened. */
async function mergeInto(db: Db, row: MemoryFact, tags: string[], status: FactStatus, agentRole: string, embedder: Embedder | null | undefined): Promise<MemoryFact> {
  const merged = [...new Set([...tagsOf(row), ...tags])].slice(0, MAX_TAGS);
  const nextStatus = row.status === "accepted" || status === "accepted" ? "accepted" : "proposed";
  // A fact stated for two different roles is for every role.
  const nextRole = row.agentRole === agentRole ? row.agentRole : "";
  const vector = embedder && row.embeddingModel !== embedder.modelId ? await embedOne(embedder, row.content) : null;
  return db.memoryFact.update({ where: { id: row.id }, data: { tags: JSON.stringify(merged), status: nextStatus, agentRole: nextRole, ...(vector ?? {}) } });
}

/**
 * Stores a fact in a workspace's long-term memory (`upsert_fact`). The content is
 * trimmed; facts are de-duplicated per workspace by the SHA-256 of the normalised content
 * (lib/memory/fact-view.ts): stating a known fact again merges its tags (at most 10), turns a
 * proposed fact accepted when stated as accepted, and keeps its first provenance.
 * @returns the fact and whether a new row was created.
 * @throws AppError unprocessable naming `content` (empty or over 2,000 chars), `tags` (over
 *   10, or one over 40 chars) or `agentRole` (over 64 chars).
 */
export async function upsertFact(db: Db, input: UpsertFactInput): Promise<{ fact: FactView; created: boolean }> {
  const content = cleanContent(input.content);
  const tags = cleanTags(input.tags ?? []);
  const agentRole = cleanRole(input.agentRole);
  const status = input.status ?? "accepted";
  const hash = contentHash(content);
  const where = { workspaceId_contentHash: { workspaceId: input.workspaceId, contentHash: hash } };
  const existing = await db.memoryFact.findUnique({ where });
  if (existing) return { fact: toFactView(await mergeInto(db, existing, tags, status, agentRole, input.embedder)), created: false };
  const vector = await embedOne(input.embedder, content);
  try {
    const row = await db.memoryFact.create({
      data: {
        workspaceId: input.workspaceId,
        content,
        contentHash: hash,
        tags: JSON.stringify(tags),
        agentRole,
        origin: input.origin,
        status,
        sourceThreadId: input.source?.threadId ?? null,
        sourceStepId: input.source?.stepId ?? null,
        createdById: input.createdById ?? null,
        ...(vector ?? {}),
      },
    });
    return { fact: toFactView(row), created: true };
  } catch (err) {
    if (prismaErrorCode(err) !== "P2002") throw err;
    // Stated twice at once: the other statement made the row; merge into it.
    return { fact: toFactView(await mergeInto(db, await db.memoryFact.findUniqueOrThrow({ where }), tags, status, agentRole, input.embedder)), created: false };
  }
}

/**
 * The facts of a workspace for the memory page: with a query, the search results
 * ({@link searchFacts}, lexical only); without, the newest first. `limit` defaults to 100
 * (at most 500).
 */
export async function listFacts(db: Db, input: { workspaceId: string; status?: FactStatus; query?: string; limit?: number }): Promise<FactView[]> {
  const limit = Math.min(500, Math.max(1, Math.floor(input.limit ?? 100)));
  if (input.query?.trim()) return searchFacts(db, { workspaceId: input.workspaceId, query: input.query, limit: Math.min(limit, 100), ...(input.status ? { status: input.status } : {}) });
  const rows = await db.memoryFact.findMany({
    where: { workspaceId: input.workspaceId, ...(input.status ? { status: input.status } : {}) },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: limit,
  });
  return rows.map(toFactView);
}

/**
 * Accepts a proposed fact (promoted facts wait for a user): from now on it is
 * retrieved into agents' contexts. Accepting an accepted fact changes nothing. The caller
 * checks that the user may (lib/memory/access.ts).
 * @throws AppError not_found ("fact_not_found").
 */
export async function acceptFact(db: Db, input: { factId: string; userId: string }): Promise<FactView> {
  const row = await db.memoryFact.findUnique({ where: { id: input.factId } });
  if (!row) throw new AppError("not_found", "fact_not_found", `No fact ${input.factId}.`);
  if (row.status === "accepted") return toFactView(row);
  return toFactView(await db.memoryFact.update({ where: { id: row.id }, data: { status: "accepted" } }));
}

/**
 * Forgets a fact (`forget`, the right to erasure: the fact and everything
 * derived from it are gone): deletes the fact and every other fact of the workspace promoted
 * from the same source (same source thread and step, when the fact has a source thread),
 * writes a Tombstone (kind fact, the fact id, the actor, the time, {"facts": n}; never the
 * content), publishes `memory.forgotten`, and scrubs the freed pages (lib/memory/scrub.ts).
 * @throws AppError not_found ("fact_not_found").
 */
export async function forgetFact(db: Db, input: { factId: string; actorId: string }): Promise<{ removed: number }> {
  const row = await db.memoryFact.findUnique({ where: { id: input.factId }, select: { id: true, workspaceId: true, sourceThreadId: true, sourceStepId: true } });
  if (!row) throw new AppError("not_found", "fact_not_found", `No fact ${input.factId}.`);
  await secureDeleteOn(db);
  const removed = await db.$transaction(async (tx) => {
    const sameSource = row.sourceThreadId ? { sourceThreadId: row.sourceThreadId, sourceStepId: row.sourceStepId } : { id: row.id };
    const { count } = await tx.memoryFact.deleteMany({ where: { workspaceId: row.workspaceId, OR: [{ id: row.id }, sameSource] } });
    await tx.tombstone.create({ data: { kind: "fact", subjectId: row.id, workspaceId: row.workspaceId, actorId: input.actorId, counts: JSON.stringify({ facts: count }) } });
    return count;
  });
  await scrubFreedPages(db, ["MemoryFact"]);
  await announce("memory.forgotten", row.sourceThreadId, { kind: "fact", subjectId: row.id, workspaceId: row.workspaceId, counts: { facts: removed } });
  return { removed };
}
