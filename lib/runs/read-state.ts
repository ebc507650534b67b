import "server-only";
import type { Db } from "../db/client";
import { flowGraph, readOnly, runConfig } from "../engine/graph-cache";
import type { CheckedThread, RunContext } from "./run-context";

/**
 * A thread's state read through its flow version's cached graph (lib/engine/graph-cache.ts)
 * with services that refuse every call: what accepting a run needs to check it against the
 * thread's latest checkpoint, without a model resolver, a tool registry (MCP rows) or a
 * checkpointer of its own (docs/architecture.md#one-compiled-graph-per-flow-version).
 * The context's `deps` carry the flow with every tool counted as known: a decision that
 * changes a call's arguments (edit, revise) decides the edited call on the run's real
 * services instead (lib/runs/run-context.ts runContext). One checkpoint read.
 * @returns the read-only context and the thread's latest state snapshot.
 */
export async function readRunState(db: Db, thread: CheckedThread, now: () => number = Date.now) {
  const { doc, flow, graph } = flowGraph(db, thread.flowVersion.document);
  const config = { configurable: { thread_id: thread.id } };
  const snapshot = await graph.getState(config);
  const deps: RunContext["deps"] = { ...readOnly(flow), now, invokedAt: now() };
  const ctx: RunContext = { doc, deps, graph, config: runConfig(thread.id, deps) };
  return { ctx, snapshot };
}
