// POST /api/langgraph/threads/:threadId/runs/stream - start a run and stream it (runs.stream): values, updates, messages-tuple, custom, events.
import { db } from "@/lib/db/client";
import { streamModesOf } from "@/lib/langgraph-api/run-body";
import { withPlatform } from "@/lib/langgraph-api/route";
import { acceptRun, streamRun } from "@/lib/langgraph-api/runs-api";
import { stateViewFor } from "@/lib/langgraph-api/state-view";
import { Body, Params } from "../schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ params: Params, body: Body }, async (req, { user, params, body }) => {
  const accepted = await acceptRun(db(), user, params.threadId, body);
  const job = await db().runJob.findUnique({ where: { id: accepted.jobId }, select: { startCheckpointId: true } });
  return streamRun({
    db: db(),
    userId: user.id,
    threadId: params.threadId,
    runId: accepted.runId,
    afterSeq: accepted.afterSeq,
    startCheckpointId: job?.startCheckpointId ?? null,
    modes: streamModesOf(body),
    signal: req.signal,
    view: ({ role }) => stateViewFor(db(), params.threadId, role),
    cancelOnDisconnect: body.on_disconnect === "cancel",
  });
});
