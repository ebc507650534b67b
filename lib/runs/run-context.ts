import "server-only";
import { PrismaCheckpointSaver } from "../db/checkpointer";
import type { Db } from "../db/client";
import { permissionOf, type Role } from "../auth/roles";
import { roleIn, type threadAccess } from "../auth/membership";
import type { FlowDocument } from "../flow/schema";
import { userModelResolver } from "../models/provider-settings";
import { workspaceToolRegistry } from "../tools/workspace-registry";
import type { EngineDeps } from "../engine/deps";
import { createEngineDeps, type EngineDepsOptions } from "../engine/engine-deps";
import type { PhylacteryGraph } from "../engine/graph";
import { flowGraph, runConfig } from "../engine/graph-cache";

/** A thread with its flow and pinned flow version, as the run checks found it. */
export type CheckedThread = Awaited<ReturnType<typeof threadAccess>>["thread"];

/** Overrides of a run's services (tests: scripted model, temp workspaces, clock, HMAC key). */
export type RunDepsOverrides = Omit<EngineDepsOptions, "db" | "doc">;

/** The compiled graph of a thread's pinned flow version, with the services it runs on. */
export interface RunContext {
  doc: FlowDocument;
  deps: EngineDeps & { invokedAt: number };
  /** The flow version's graph, compiled once (lib/engine/graph-cache.ts). */
  graph: PhylacteryGraph;
  /** LangGraph config naming the thread and carrying the run's services: `{ configurable: { thread_id, … } }` (see runConfig). */
  config: ReturnType<typeof runConfig>;
}

/**
 * Compiles the thread's flow version into its graph, on the thread's user's permission level
 * (the thread's owner's role in the workspace: an approver deciding does not lend their
 * role), the user's own model provider (Settings, else the server's, else offline) and the
 * workspace's tools (built-ins and MCP). `leased`: the caller holds the thread's lease for
 * the context's whole life (a worker executing the run). `thread.ownerRole`, when the caller
 * read it with the thread (lib/auth/membership.ts `threadWithOwnerRole`), saves the role's query.
 */
export async function runContext(db: Db, thread: CheckedThread & { ownerRole?: Role | null }, overrides: RunDepsOverrides = {}, opts: { leased?: boolean } = {}): Promise<RunContext> {
  const { doc, graph } = flowGraph(db, thread.flowVersion.document);
  const now = overrides.now ?? Date.now;
  const toolNames = doc.nodes.flatMap((n) => (n.type === "tool" ? [n.data.tool] : []));
  // Three independent reads: side by side (on PostgreSQL, three connections of the pool).
  const [role, resolveModel, registry] = await Promise.all([
    thread.ownerRole !== undefined ? thread.ownerRole : roleIn(db, thread.userId, thread.flow.workspaceId),
    overrides.resolveModel ?? userModelResolver(db, thread.userId),
    overrides.registry ?? workspaceToolRegistry(db, thread.flow.workspaceId, toolNames),
  ]);
  const deps = { ...createEngineDeps({ db, doc, permission: role ? permissionOf(role) : "user", workspaceId: thread.flow.workspaceId, ...overrides, resolveModel, registry }), invokedAt: now() };
  // A worker holding the thread's lease is its only writer: it may keep the latest checkpoint
  // in memory (docs/durability.md#the-lease); anyone else reads the database.
  const saver = opts.leased === true ? new PrismaCheckpointSaver(db, { cacheLatest: true }) : undefined;
  return { doc, deps, graph, config: runConfig(thread.id, deps, saver) };
}
