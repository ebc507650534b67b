// POST /api/threads/:threadId/fork - start a new thread from one of this thread's checkpoints ("fork from here").
import { db } from "@/lib/db/client";
import { forkThread } from "@/lib/runs/fork-thread";
import { withUser } from "@/lib/http/with-user";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params, body: Body }, async (_req, { user, params, body }) => {
  const fork = await forkThread(db(), user.id, params.threadId, body.checkpointId);
  return Response.json({ threadId: fork.threadId, status: fork.status, checkpointId: fork.checkpointId, dropped: fork.event.dropped }, { status: 201 });
});
