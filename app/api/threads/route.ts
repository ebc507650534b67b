// POST /api/threads - create a thread (run view) on a pinned version of a flow, or its latest, with its workspace.
import { db } from "@/lib/db/client";
import { createThread } from "@/lib/db/threads";
import { approvalSecret } from "@/lib/engine/engine-deps";
import { taskWithoutTypedTokens } from "@/lib/runs/typed-tokens";
import { env } from "@/lib/env";
import { withUser } from "@/lib/http/with-user";
import { ensureWorkspace } from "@/lib/tools/workspace";
import { Body } from "./schema";

export const POST = withUser({ body: Body, need: { capability: "run", flow: { body: "flowId" } } }, async (_req, { user, body, access }) => {
  // No live approval token typed into the task is stored with the thread (docs/security.md "Secrets at rest").
  const task = await taskWithoutTypedTokens(db(), approvalSecret(), user.id, body.task);
  const thread = await createThread(db(), access, body.flowId, task, body.version);
  await ensureWorkspace(env().WORKSPACES_DIR, thread.id);
  return Response.json({ threadId: thread.id }, { status: 201 });
});
