// POST /api/threads - create a thread (run view) on a pinned version of a flow, or its latest, with its workspace.
import { db } from "@/lib/db/client";
import { createThread } from "@/lib/db/threads";
import { env } from "@/lib/env";
import { withUser } from "@/lib/http/with-user";
import { ensureWorkspace } from "@/lib/tools/workspace";
import { Body } from "./schema";

export const POST = withUser({ body: Body }, async (_req, { user, body }) => {
  const thread = await createThread(db(), user.id, body.flowId, body.task, body.version);
  await ensureWorkspace(env().WORKSPACES_DIR, thread.id);
  return Response.json({ threadId: thread.id }, { status: 201 });
});
