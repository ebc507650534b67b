// GET /api/langgraph/threads/:threadId/state - the thread's latest state (values, next, tasks with interrupts, checkpoint); POST and PATCH are not offered (405).
import { db } from "@/lib/db/client";
import { withPlatform } from "@/lib/platform/route";
import { resolveThread, threadState } from "@/lib/platform/threads";
import { unsupported } from "@/lib/platform/unsupported";
import { Params, Query } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withPlatform({ params: Params, query: Query }, async (_req, { user, params }) => Response.json(await threadState(db(), await resolveThread(db(), user, params.threadId))));

// Another workspace's thread does not exist for the caller: 404 before the 405.
export const POST = withPlatform({ params: Params }, async (_req, { user, params }) => {
  await resolveThread(db(), user, params.threadId);
  return unsupported("Editing a thread's state is not offered: to go back in time, fork the thread at a checkpoint in the run view (or POST /api/threads/{thread_id}/fork), then run the fork.");
});

export const PATCH = withPlatform({ params: Params }, async (_req, { user, params }) => {
  await resolveThread(db(), user, params.threadId);
  return unsupported("Editing a checkpoint's metadata is not offered: thread metadata is changed with PATCH /threads/{thread_id}.");
});
