// POST /api/langgraph/threads/:threadId/copy - not offered (405): fork the thread at a checkpoint instead.
import { db } from "@/lib/db/client";
import { withPlatform } from "@/lib/langgraph-api/route";
import { resolveThread } from "@/lib/langgraph-api/threads";
import { unsupported } from "@/lib/langgraph-api/unsupported";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ params: Params }, async (_req, { user, params }) => {
  await resolveThread(db(), user, params.threadId);
  return unsupported("Copying a thread is not offered: fork it at a checkpoint in the run view (or POST /api/threads/{thread_id}/fork with its latest checkpoint).");
});
