// POST /api/threads/:threadId/memory/promote - propose long-term facts from the thread's completed steps (accepted at once when the flow auto-promotes; owners and approvers).
import { db } from "@/lib/db/client";
import { FlowDocument } from "@/lib/flow/schema";
import { withUser } from "@/lib/http/with-user";
import { MEMORY_REFUSAL } from "@/lib/memory/access";
import { promote } from "@/lib/memory/promote";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params, need: { capability: "remember", refusal: MEMORY_REFUSAL, thread: "threadId" } }, async (_req, { user, access: { thread } }) => {
  const auto = FlowDocument.parse(JSON.parse(thread.flowVersion.document)).settings.memory.autoPromote;
  return Response.json({ facts: await promote(db(), { threadId: thread.id, auto, userId: user.id }) });
});
