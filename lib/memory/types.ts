/**
 * Shapes of the memory service (docs/architecture.md#memory). Client-safe: no server imports, so
 * the memory page and the run view can use them too.
 */

/** How many short-term entries an agent's context gets (the last 20). */
export const SHORT_TERM_IN_CONTEXT = 20;
/** How many long-term facts an agent's context gets (the top 3). */
export const FACTS_IN_CONTEXT = 3;
/** Default life of a short-term entry, ms (24 h). */
export const SHORT_TERM_TTL_MS = 24 * 60 * 60 * 1000;

/** One short-term entry (timestamp, agent, action, result). */
export interface ShortTermEntry {
  id: string;
  threadId: string;
  agentId: string;
  action: string;
  result: string;
  stepId: string | null;
  /** ISO-8601 */
  createdAt: string;
  /** ISO-8601 */
  expiresAt: string;
}

/** How a fact came to be. */
export type FactOrigin = "remember" | "promoted" | "manual";
/** proposed: waiting for a user to accept it (never retrieved); accepted: retrievable. */
export type FactStatus = "proposed" | "accepted";

/** A long-term fact with its provenance (docs/architecture.md#memory). */
export interface FactView {
  id: string;
  workspaceId: string;
  content: string;
  tags: string[];
  /** "" = every agent role. */
  agentRole: string;
  origin: FactOrigin;
  status: FactStatus;
  source: { threadId: string | null; stepId: string | null };
  createdById: string | null;
  /** ISO-8601 */
  createdAt: string;
  /** ISO-8601 */
  updatedAt: string;
}

/** A fact found by `search`/`retrieve`: score (higher is better) and which searches found it. */
export interface RetrievedFact extends FactView {
  score: number;
  via: ("lexical" | "semantic")[];
}

/** What `retrieve` gives an agent before a step: the last short-term entries and the top facts. */
export interface RetrievedMemory {
  shortTerm: ShortTermEntry[];
  facts: RetrievedFact[];
}

/** Filters of `search` and `retrieve`. */
export interface MemoryFilters {
  /** Only facts that carry every one of these tags. */
  tags?: string[];
  /** Only facts of these origins. */
  origins?: FactOrigin[];
}
