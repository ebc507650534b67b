import "server-only";
import { AppError } from "../errors";
import type { Db } from "./client";

/**
 * Creates a thread on the latest version of one of the user's flows (runs pin the version
 * they run, SPEC.md 1). The title is the task, cut to 120 chars.
 * @throws AppError not_found when the flow is not the user's.
 */
export async function createThread(db: Db, userId: string, flowId: string, task: string) {
  const flow = await db.flow.findFirst({ where: { id: flowId, ownerId: userId }, include: { versions: { orderBy: { version: "desc" }, take: 1 } } });
  const version = flow?.versions[0];
  if (!flow || !version) throw new AppError("not_found", "flow_not_found", `No flow ${flowId}.`);
  const title = task.trim().replace(/\s+/g, " ").slice(0, 120);
  return db.thread.create({ data: { userId, flowId: flow.id, flowVersionId: version.id, title, status: "idle" } });
}

/**
 * A thread of the user with its flow and version.
 * @throws AppError not_found when it does not exist or belongs to someone else.
 */
export async function getThread(db: Db, userId: string, threadId: string) {
  const thread = await db.thread.findFirst({ where: { id: threadId, userId }, include: { flow: true, flowVersion: { select: { version: true } } } });
  if (!thread) throw new AppError("not_found", "thread_not_found", `No thread ${threadId}.`);
  return thread;
}
