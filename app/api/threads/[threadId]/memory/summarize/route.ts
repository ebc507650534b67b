// POST /api/threads/:threadId/memory/summarize - write the thread's summary (its user, owners and approvers).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { requireCapability } from "@/lib/auth/roles";
import { MEMORY_REFUSAL } from "@/lib/memory/access";
import { summarize } from "@/lib/memory/promote";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params, need: { capability: "see", thread: "threadId" } }, async (_req, { user, access: { thread, role } }) => {
  // The thread's own user summarizes it; anyone else needs to be a memory editor.
  if (thread.userId !== user.id) requireCapability(role, "remember", MEMORY_REFUSAL);
  return Response.json({ summary: await summarize(db(), { threadId: thread.id }) });
});
