// POST /api/threads/:threadId/memory/promote - propose long-term facts from the thread's completed steps (accepted at once when the flow auto-promotes; owners and approvers).
import { db } from "@/lib/db/client";
import { threadAccess } from "@/lib/db/workspaces";
import { FlowDocument } from "@/lib/flow/schema";
import { withUser } from "@/lib/http/with-user";
import { requireFactEditor } from "@/lib/memory/access";
import { promote } from "@/lib/memory/promote";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params }, async (_req, { user, params }) => {
  const { thread, role } = await threadAccess(db(), user.id, params.threadId);
  requireFactEditor(role);
  const auto = FlowDocument.parse(JSON.parse(thread.flowVersion.document)).settings.memory.autoPromote;
  return Response.json({ facts: await promote(db(), { threadId: thread.id, auto, userId: user.id }) });
});
