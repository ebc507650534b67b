// GET /api/langgraph/threads/:threadId/state - the thread's latest state (values, next, tasks with interrupts, checkpoint).
// POST: only "Mark as resolved" (values null, as_node "__end__": the waiting approval is ignored); other updates and PATCH are not offered (405).
import { db } from "@/lib/db/client";
import { markResolved } from "@/lib/langgraph-api/mark-resolved";
import { withPlatform } from "@/lib/langgraph-api/route";
import { resolveThread, threadState } from "@/lib/langgraph-api/threads";
import { unsupported } from "@/lib/langgraph-api/unsupported";
import { Params, Query, UpdateBody } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withPlatform({ params: Params, query: Query }, async (_req, { user, params }) => Response.json(await threadState(db(), await resolveThread(db(), user, params.threadId))));

// Another workspace's thread does not exist for the caller: 404 before the 405.
export const POST = withPlatform({ params: Params, body: UpdateBody }, async (req, { user, params, body }) => {
  await resolveThread(db(), user, params.threadId);
  if (body.values === null && body.as_node === "__end__" && !body.checkpoint && !body.checkpoint_id) {
    return Response.json(await markResolved(db(), user, params.threadId, req.signal));
  }
  return unsupported(
    'Editing a thread\'s state is not offered, except marking a thread waiting on an approval as resolved ({ values: null, as_node: "__end__" }). To go back in time, fork the thread at a checkpoint in the run view (or POST /api/threads/{thread_id}/fork), then run the fork.',
  );
});

export const PATCH = withPlatform({ params: Params }, async (_req, { user, params }) => {
  await resolveThread(db(), user, params.threadId);
  return unsupported("Editing a checkpoint's metadata is not offered: thread metadata is changed with PATCH /threads/{thread_id}.");
});
