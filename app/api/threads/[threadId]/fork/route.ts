// POST /api/threads/:threadId/fork - start a new thread from one of this thread's checkpoints ("fork from here").
import { db } from "@/lib/db/client";
import { forkThread } from "@/lib/runs/fork-thread";
import { withUser } from "@/lib/http/with-user";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params, body: Body, need: { capability: "run", thread: "threadId" } }, async (_req, { params, body, access }) => {
  const fork = await forkThread(db(), access, params.threadId, body.checkpointId);
  return Response.json({ threadId: fork.threadId, status: fork.status, checkpointId: fork.checkpointId, dropped: fork.event.dropped }, { status: 201 });
});
