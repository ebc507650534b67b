import "server-only";
import { threadWorkspaceId } from "../auth/membership";
import type { Db } from "../db/client";
import type { FlowDocument } from "../flow/schema";
import { type Embedder, embedderFromEnv } from "../memory/embeddings";
import { searchFacts, upsertFact } from "../memory/long-term";
import { retrieve } from "../memory/retrieve";
import { appendEntry } from "../memory/short-term";
import type { MemoryAccess } from "../tools/types";
import type { EngineDeps, ToolCallContext } from "./deps";

/** Options of {@link bindMemory}. */
export interface MemoryBindingOptions {
  db: Db;
  /** The flow's memory settings (SPEC.md 6); `enabled: false` binds nothing. */
  settings: FlowDocument["settings"]["memory"];
  /** Embedding model for semantic search; default from the environment (none: lexical only). */
  embedder?: Embedder | null;
  /** Clock, ms since the epoch. */
  now: () => number;
}

/** The memory a run's engine and its tools use, bound to the workspace of each thread. */
export interface MemoryBinding {
  engine: NonNullable<EngineDeps["memory"]>;
  /** The `remember` / `recall` capability of one tool call (its thread and step are the source). */
  forTool(threadId: string, call: ToolCallContext | undefined): MemoryAccess;
}

/**
 * Binds the memory service (lib/memory) to the engine (SPEC.md 6). The workspace is always
 * read from the thread's own flow, never taken from a caller, so a run can only reach the
 * memory of the workspace its thread belongs to (isolation).
 * @returns null when the flow turns memory off.
 */
export function bindMemory(opts: MemoryBindingOptions): MemoryBinding | null {
  if (!opts.settings.enabled) return null;
  const { db, now } = opts;
  const embedder = opts.embedder === undefined ? embedderFromEnv() : opts.embedder;
  const workspaces = new Map<string, Promise<string>>();
  const workspaceOf = (threadId: string): Promise<string> => {
    let found = workspaces.get(threadId);
    if (!found) {
      found = threadWorkspaceId(db, threadId).then((id) => {
        if (id === null) throw new Error(`memory: no thread ${threadId}`);
        return id;
      });
      workspaces.set(threadId, found);
    }
    return found;
  };
  const ttlMs = opts.settings.shortTermTtlHours * 60 * 60 * 1000;
  return {
    engine: {
      async retrieve({ threadId, query, agentRole }) {
        return retrieve(db, { workspaceId: await workspaceOf(threadId), threadId, query, agentRole, embedder, now: now() });
      },
      async append(threadId, entry) {
        await appendEntry(db, { threadId, workspaceId: await workspaceOf(threadId), ...entry, ttlMs, now: now() });
      },
    },
    forTool(threadId, call) {
      const source = { threadId, stepId: call?.stepId ?? null };
      return {
        async remember({ content, tags }) {
          const workspaceId = await workspaceOf(threadId);
          const { fact, created } = await upsertFact(db, { workspaceId, content, tags, origin: "remember", status: "accepted", source, embedder });
          return { id: fact.id, created };
        },
        async recall({ query, limit, tags }) {
          const workspaceId = await workspaceOf(threadId);
          const facts = await searchFacts(db, { workspaceId, query, limit, embedder, ...(tags && tags.length > 0 ? { filters: { tags } } : {}) });
          return facts.map((f) => ({ id: f.id, content: f.content, tags: f.tags, score: f.score, source: f.source }));
        },
      };
    },
  };
}
