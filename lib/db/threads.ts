import "server-only";
import { AppError } from "../errors";
import type { Db } from "./client";
import { flowAccess, requireCapability, threadAccess } from "./workspaces";

/**
 * Creates a thread on the latest version of a flow of the user's workspace (runs pin the
 * version they run, SPEC.md 1). The title is the task, cut to 120 chars. Owners and
 * approvers may start runs; viewers may not.
 * @throws AppError not_found (another workspace's flow), forbidden (viewer).
 */
export async function createThread(db: Db, userId: string, flowId: string, task: string) {
  const { role } = await flowAccess(db, userId, flowId);
  requireCapability(role, "run");
  const flow = await db.flow.findUnique({ where: { id: flowId }, include: { versions: { orderBy: { version: "desc" }, take: 1 } } });
  const version = flow?.versions[0];
  if (!flow || !version) throw new AppError("not_found", "flow_not_found", `No flow ${flowId}.`);
  const title = task.trim().replace(/\s+/g, " ").slice(0, 120);
  return db.thread.create({ data: { userId, flowId: flow.id, flowVersionId: version.id, title, status: "idle" } });
}

/**
 * A thread the user may see (a member of its flow's workspace) with its flow, version and
 * the user's role there.
 * @throws AppError not_found when it does not exist or is in another workspace.
 */
export async function getThread(db: Db, userId: string, threadId: string) {
  const { thread, role } = await threadAccess(db, userId, threadId);
  return { ...thread, flowVersion: { version: thread.flowVersion.version }, role };
}
