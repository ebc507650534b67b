import "server-only";
import type { BaseCheckpointSaver, LangGraphRunnableConfig } from "@langchain/langgraph";
import { LRUCache } from "lru-cache";
import { PrismaCheckpointSaver } from "../db/checkpointer";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { compileFlowSpec, type FlowSpec } from "../flow/compile";
import { FlowDocument } from "../flow/schema";
import { isSideEffectTool } from "../tools/registry";
import type { EngineDeps } from "./deps";
import { buildGraph, type PhylacteryGraph } from "./graph";

/**
 * The one way to build a graph (docs/architecture.md#one-compiled-graph-per-flow-version): a
 * flow version's document is immutable, so its parsed document and its compiled graph are
 * made once and shared by every run, state read and history read of that version, in a
 * bounded LRU per database (no invalidation is ever needed). A run's services (model
 * resolver, tools, approvals, clock) are not part of the graph: they travel in the run's
 * config ({@link runConfig}), and a config without them gets {@link readOnly} services that
 * refuse every call, so reading a thread's state needs no models and no tools.
 */

/** How many flow versions' graphs are kept per database (entries, least recently used out first). */
export const FLOW_GRAPH_CACHE_MAX = 64;

/** Where a run's services travel in its LangGraph config (`configurable`; `__` keys never reach checkpoint metadata). */
const RUN_DEPS = "__phylactery_run_deps";
/** LangGraph's key for a checkpointer lent through the config (a leased worker's own saver). */
const LENT_CHECKPOINTER = "__pregel_checkpointer";

/** A flow version, compiled once. */
export interface FlowGraph {
  /** The version's parsed document. */
  doc: FlowDocument;
  /** Its spec with every tool counted as known (nothing runs through it; see {@link readOnly}). */
  flow: FlowSpec;
  /** The graph, on the database's checkpointer; a run lends its own services through {@link runConfig}. */
  graph: PhylacteryGraph;
}

const refuse = (): never => {
  throw new AppError("internal", "read_only_graph", "This graph only reads checkpoints; its nodes never run.");
};

/**
 * Services that refuse every call: what a graph's nodes get when the config names no run
 * (state and history reads, which never run a node).
 */
export function readOnly(flow: FlowSpec): EngineDeps {
  return {
    flow,
    permission: "user",
    resolveModel: refuse,
    tools: { describe: () => undefined, run: refuse },
    approvals: { create: refuse, consume: refuse, reject: refuse },
    blobs: { put: refuse, read: refuse },
    executions: { begin: refuse, finish: refuse, decide: refuse, get: refuse },
    audit: refuse,
    now: Date.now,
  };
}

const g = globalThis as { __phylacteryFlowGraphs?: WeakMap<Db, LRUCache<string, FlowGraph>> };
g.__phylacteryFlowGraphs ??= new WeakMap();
/** Per database (tests run many): kept on globalThis so that Next.js's module copies share it. */
const byDb = g.__phylacteryFlowGraphs;

/** Counts of {@link flowGraph} calls (tests, benches): `built` graphs compiled, `hits` served from the cache. */
export const flowGraphStats = { built: 0, hits: 0 };

/**
 * The compiled graph of a flow version's document, from the cache when it was built before.
 * @param document the FlowVersion's `document` (JSON text); it is the cache key, being immutable.
 * @throws ZodError / SyntaxError when the document does not parse; AppError unprocessable
 *   when it no longer compiles (see compileFlowSpec).
 */
export function flowGraph(db: Db, document: string): FlowGraph {
  let cache = byDb.get(db);
  if (!cache) {
    cache = new LRUCache<string, FlowGraph>({ max: FLOW_GRAPH_CACHE_MAX });
    byDb.set(db, cache);
  }
  const hit = cache.get(document);
  if (hit) {
    flowGraphStats.hits += 1;
    return hit;
  }
  const doc = FlowDocument.parse(JSON.parse(document));
  // Nothing runs through the read-only services, so every tool the version names counts as
  // known (MCP tools included; their servers need not be reachable to read history).
  // Unknown ones stay side-effecting.
  const flow = compileFlowSpec(doc, { known: () => true, sideEffect: isSideEffectTool });
  const fallback = readOnly(flow);
  const depsOf = (config?: LangGraphRunnableConfig): EngineDeps => (config?.configurable?.[RUN_DEPS] as EngineDeps | undefined) ?? fallback;
  const entry: FlowGraph = { doc, flow, graph: buildGraph(depsOf, new PrismaCheckpointSaver(db)) };
  cache.set(document, entry);
  flowGraphStats.built += 1;
  return entry;
}

/**
 * The LangGraph config of a run on a cached graph: the thread, the run's services and,
 * when given, the checkpointer the run uses instead of the graph's (a leased worker's,
 * which keeps the latest checkpoint in memory).
 */
export function runConfig(threadId: string, deps: EngineDeps, checkpointer?: BaseCheckpointSaver): { configurable: { thread_id: string } & Record<string, unknown> } {
  return { configurable: { thread_id: threadId, [RUN_DEPS]: deps, ...(checkpointer ? { [LENT_CHECKPOINTER]: checkpointer } : {}) } };
}
