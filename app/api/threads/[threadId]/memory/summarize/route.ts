// POST /api/threads/:threadId/memory/summarize - write the thread's summary (its user, owners and approvers).
import { db } from "@/lib/db/client";
import { threadAccess } from "@/lib/db/workspaces";
import { withUser } from "@/lib/http/with-user";
import { requireFactEditor } from "@/lib/memory/access";
import { summarize } from "@/lib/memory/promote";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params }, async (_req, { user, params }) => {
  const { thread, role } = await threadAccess(db(), user.id, params.threadId);
  if (thread.userId !== user.id) requireFactEditor(role);
  return Response.json({ summary: await summarize(db(), { threadId: thread.id }) });
});
