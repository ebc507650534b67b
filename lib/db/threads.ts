import "server-only";
import { userProviderNames } from "../models/provider-settings";
import { AppError } from "../errors";
import { assertRunnable } from "../flow/runnable";
import { FlowDocument } from "../flow/schema";
import { displayTitle, MAX_TASK_CHARS, tooLongText } from "../task-text";
import { workspaceToolRegistry } from "../tools/workspace-registry";
import type { Db } from "./client";
import { requireCapability } from "../auth/roles";
import { type Caller, callerId, flowAccess, threadAccess } from "../auth/membership";

/**
 * Creates a thread on a version of a flow of the user's workspace: `version` when given
 * (a pinned run), else the latest. Runs pin the version they run (docs/architecture.md#flows-and-compilation).
 * The task is stored in full (trimmed) and the thread's first run starts from it; the title
 * is only for display, the task on one line shortened with "…" (docs/runs.md#tasks). Owners
 * and approvers may start runs; viewers may not.
 * The version is checked against the workspace's tool catalog (built-ins and MCP tools).
 * @param who a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 * @param version a version number (1-based) of this flow, or undefined for the latest.
 * @param opts the thread's id when the caller chose it (a LangGraph API thread made before its
 *   first run, docs/langgraph-api.md#threads) and its metadata (a JSON object).
 * @param task the task, at most 4,000 chars once trimmed.
 * @throws AppError unprocessable ("task_too_long": over 4,000 chars; never cut), not_found ("flow_not_found": another workspace's flow;
 *   "version_not_found": the flow has no such version), forbidden (viewer), unprocessable
 *   ("flow_not_runnable": the version fails the editor's validation).
 */
export async function createThread(db: Db, who: Caller, flowId: string, task: string, version?: number, opts: { id?: string; metadata?: string } = {}) {
  const userId = callerId(who);
  const text = task.trim();
  if (text.length > MAX_TASK_CHARS) throw new AppError("unprocessable", "task_too_long", `task: ${tooLongText(text.length)}`);
  const { flow, role } = await flowAccess(db, who, flowId);
  requireCapability(role, "run");
  const pinned =
    version === undefined
      ? await db.flowVersion.findFirst({ where: { flowId }, orderBy: { version: "desc" }, select: { id: true, version: true, document: true } })
      : await db.flowVersion.findUnique({ where: { flowId_version: { flowId, version } }, select: { id: true, version: true, document: true } });
  if (!pinned) {
    if (version !== undefined) throw new AppError("not_found", "version_not_found", `version: this flow has no version ${version}.`);
    throw new AppError("not_found", "flow_not_found", `No flow ${flowId}.`);
  }
  // The workspace's catalog: built-ins and its MCP servers' tools, as runs see it.
  const doc = FlowDocument.parse(JSON.parse(pinned.document));
  const registry = await workspaceToolRegistry(
    db,
    flow.workspaceId,
    doc.nodes.flatMap((n) => (n.type === "tool" ? [n.data.tool] : [])),
  );
  const providers = new Set(await userProviderNames(db, userId));
  assertRunnable(doc, { known: (name) => Boolean(registry.get(name)), sideEffect: registry.isSideEffect }, pinned.version, { configured: (name) => providers.has(name) });
  return db.thread.create({ data: { ...opts, userId, flowId, flowVersionId: pinned.id, title: displayTitle(text), task: text, status: "idle" } });
}

/**
 * A thread the user may see (a member of its flow's workspace) with its flow, version and
 * the user's role there. `userId`: a user id, or the access the route resolved
 * (lib/auth/membership.ts `Caller`: no query).
 * @throws AppError not_found when it does not exist or is in another workspace.
 */
export async function getThread(db: Db, userId: Caller, threadId: string) {
  const { thread, role } = await threadAccess(db, userId, threadId);
  return { ...thread, flowVersion: { version: thread.flowVersion.version }, role };
}
