import "server-only";
import { cosineSimilarity } from "ai";
import MiniSearch from "minisearch";
import type { MemoryFact } from "../../generated/prisma/client";
import type { Db } from "../db/client";
import type { Embedder } from "./embeddings";
import { embeddingOf, normaliseContent, tagsOf, toFactView } from "./fact-view";
import type { FactStatus, MemoryFilters, RetrievedFact } from "./types";
import { logger } from "../log";

/**
 * Long-term memory search (`search`: semantic + filters, then
 * de-duplication and re-ranking; docs/architecture.md#memory). Two searches over the facts of ONE
 * workspace, merged by reciprocal rank fusion:
 * - lexical: MiniSearch (BM25-like) over content and tags, prefix and fuzzy matching;
 * - semantic: cosine similarity between the query's embedding and the facts' embeddings,
 *   when an embedder is given (facts embedded by another model are embedded again lazily).
 */

/** Default number of results. */
export const SEARCH_LIMIT = 20;
/** Most facts of a workspace a search considers (the newest). */
export const MAX_CANDIDATES = 5_000;
/** A semantic hit needs at least this cosine similarity. */
export const SEMANTIC_MIN_SIMILARITY = 0.3;
/** Facts without a vector of the current model embedded per search, at most. */
export const BACKFILL_PER_SEARCH = 64;
/** Reciprocal rank fusion constant (Cormack et al. 2009: k = 60). */
const RRF_K = 60;
/** Two results whose word sets overlap at least this much (Jaccard) are one. */
const NEAR_DUPLICATE_JACCARD = 0.9;
/** Two results whose vectors are at least this similar are one. */
const NEAR_DUPLICATE_COSINE = 0.98;

const STOP_WORDS = new Set(
  "a an and are as at be by do does for from has have how i in is it its of on or our that the their there this to was we were what when where which who why will with you your".split(" "),
);

/** What {@link searchFacts} looks for. */
export interface SearchInput {
  workspaceId: string;
  /** Free text; empty lists the newest facts. */
  query: string;
  /** Only facts for every role ("") or this role; absent: any role. */
  agentRole?: string;
  filters?: MemoryFilters;
  /** Only facts with this status; absent: any. */
  status?: FactStatus;
  /** Most results (default {@link SEARCH_LIMIT}, 1..100). */
  limit?: number;
  embedder?: Embedder | null;
}

function words(text: string): string[] {
  return normaliseContent(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/** Lexical ranking: ids of the facts that match, best first. */
function lexicalRank(rows: MemoryFact[], query: string): string[] {
  const index = new MiniSearch<{ id: string; content: string; tags: string }>({
    fields: ["content", "tags"],
    processTerm: (term) => {
      const t = term.toLowerCase();
      return STOP_WORDS.has(t) ? null : t;
    },
    searchOptions: {
      boost: { tags: 1.5 },
      prefix: (term) => term.length >= 3,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      combineWith: "OR",
    },
  });
  index.addAll(rows.map((r) => ({ id: r.id, content: r.content, tags: tagsOf(r).join(" ") })));
  return index.search(query).map((hit) => String(hit.id));
}

/** Embeds up to {@link BACKFILL_PER_SEARCH} facts that have no vector of this model, in place. */
async function backfill(db: Db, rows: MemoryFact[], embedder: Embedder): Promise<void> {
  const missing = rows.filter((r) => r.embeddingModel !== embedder.modelId || !embeddingOf(r)).slice(0, BACKFILL_PER_SEARCH);
  if (missing.length === 0) return;
  const vectors = await embedder.embed(missing.map((r) => r.content));
  for (const [i, row] of missing.entries()) {
    const v = vectors[i];
    if (!v) continue;
    row.embedding = JSON.stringify(v);
    row.embeddingModel = embedder.modelId;
    // updatedAt kept: a new vector is not a new statement of the fact.
    await db.memoryFact.updateMany({ where: { id: row.id }, data: { embedding: row.embedding, embeddingModel: row.embeddingModel, updatedAt: row.updatedAt } });
  }
}

/** Semantic ranking: ids with their similarity, best first; [] when the embedder fails. */
async function semanticRank(db: Db, rows: MemoryFact[], query: string, embedder: Embedder): Promise<{ id: string; similarity: number }[]> {
  try {
    await backfill(db, rows, embedder);
    const [q] = await embedder.embed([query]);
    if (!q) return [];
    const hits: { id: string; similarity: number }[] = [];
    for (const row of rows) {
      const v = row.embeddingModel === embedder.modelId ? embeddingOf(row) : null;
      if (!v || v.length !== q.length) continue;
      const similarity = cosineSimilarity(q, v);
      if (similarity >= SEMANTIC_MIN_SIMILARITY) hits.push({ id: row.id, similarity });
    }
    return hits.sort((a, b) => b.similarity - a.similarity);
  } catch (err) {
    logger.warn({ err, model: embedder.modelId }, "memory search: embeddings failed; lexical results only");
    return [];
  }
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let inter = 0;
  for (const w of a) if (b.has(w)) inter += 1;
  return inter / (a.size + b.size - inter);
}

/**
 * Searches the long-term facts of one workspace (docs/architecture.md#memory). Every candidate is read with
 * `workspaceId` in the query, so no other tenant's fact can come back. Filters: status,
 * agent role ("" or the given role), origins, and tags (a fact must carry every one).
 * A non-empty query runs the lexical search and, with an embedder, the semantic one; the
 * rankings are fused (reciprocal rank fusion, k = 60) into `score` (higher is better), `via`
 * lists which searches found the fact, and near-identical facts (same words, Jaccard >= 0.9,
 * or vectors with cosine >= 0.98) come back once. An empty query lists the newest facts
 * (score 0, via []). An embedder that fails leaves the lexical results.
 */
export async function searchFacts(db: Db, input: SearchInput): Promise<RetrievedFact[]> {
  const limit = Math.min(100, Math.max(1, Math.floor(input.limit ?? SEARCH_LIMIT)));
  const origins = input.filters?.origins;
  const rows = await db.memoryFact.findMany({
    where: {
      workspaceId: input.workspaceId,
      ...(input.status ? { status: input.status } : {}),
      ...(input.agentRole !== undefined ? { agentRole: { in: ["", input.agentRole] } } : {}),
      ...(origins && origins.length > 0 ? { origin: { in: origins } } : {}),
    },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    take: MAX_CANDIDATES,
  });
  const required = (input.filters?.tags ?? []).map((t) => t.trim().toLowerCase().replace(/\s+/g, "-")).filter(Boolean);
  const candidates = required.length === 0 ? rows : rows.filter((r) => required.every((t) => tagsOf(r).includes(t)));
  const query = input.query.trim();
  if (!query) return candidates.slice(0, limit).map((r) => ({ ...toFactView(r), score: 0, via: [] }));

  const byId = new Map(candidates.map((r) => [r.id, r]));
  const fused = new Map<string, { score: number; via: Set<"lexical" | "semantic"> }>();
  const add = (id: string, rank: number, via: "lexical" | "semantic") => {
    const hit = fused.get(id) ?? { score: 0, via: new Set() };
    hit.score += 1 / (RRF_K + rank + 1);
    hit.via.add(via);
    fused.set(id, hit);
  };
  for (const [rank, id] of lexicalRank(candidates, query).entries()) add(id, rank, "lexical");
  if (input.embedder) for (const [rank, hit] of (await semanticRank(db, candidates, query, input.embedder)).entries()) add(hit.id, rank, "semantic");

  const ranked = [...fused.entries()]
    .flatMap(([id, hit]) => {
      const row = byId.get(id);
      return row ? [{ row, ...hit }] : [];
    })
    .sort((a, b) => b.score - a.score || b.row.updatedAt.getTime() - a.row.updatedAt.getTime() || a.row.id.localeCompare(b.row.id));

  const kept: { row: MemoryFact; score: number; via: Set<"lexical" | "semantic">; words: Set<string>; vector: number[] | null }[] = [];
  for (const hit of ranked) {
    const w = new Set(words(hit.row.content));
    const vector = input.embedder && hit.row.embeddingModel === input.embedder.modelId ? embeddingOf(hit.row) : null;
    const twin = kept.find(
      (k) => jaccard(k.words, w) >= NEAR_DUPLICATE_JACCARD || (k.vector && vector && k.vector.length === vector.length && cosineSimilarity(k.vector, vector) >= NEAR_DUPLICATE_COSINE),
    );
    if (twin) {
      for (const v of hit.via) twin.via.add(v);
      continue;
    }
    kept.push({ ...hit, words: w, vector });
    if (kept.length === limit) break;
  }
  return kept.map((k) => ({ ...toFactView(k.row), score: k.score, via: (["lexical", "semantic"] as const).filter((v) => k.via.has(v)) }));
}
