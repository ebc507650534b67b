// GET /api/langgraph/threads/:threadId/runs/:runId/stream - join a run's stream (runs.joinStream), resuming after Last-Event-ID.
import { db } from "@/lib/db/client";
import { followTarget } from "@/lib/runs/follow-target";
import { withPlatform } from "@/lib/langgraph-api/route";
import { runOf, streamRun } from "@/lib/langgraph-api/runs-api";
import { stateViewFor } from "@/lib/langgraph-api/state-view";
import { JoinStreamQuery, RunParams } from "../../schema";

export const dynamic = "force-dynamic";

/** The seq a `Last-Event-ID` names (its leading digits; state events add a suffix), or null. */
function seqOf(lastEventId: string | null): number | null {
  const m = lastEventId ? /^(\d+)/.exec(lastEventId) : null;
  return m ? Number(m[1]) : null;
}

/**
 * Streams a run from its first event, or after the event a reconnecting client last got
 * (`Last-Event-ID`): its stored events are replayed, then followed live. State events
 * (values, updates) start from the run's first checkpoint, or, on a reconnect, from the
 * thread's latest one.
 */
export const GET = withPlatform({ params: RunParams, query: JoinStreamQuery }, async (req, { user, params, query }) => {
  const { run } = await runOf(db(), user.id, params.threadId, params.runId);
  const resumeAfter = seqOf(req.headers.get("last-event-id"));
  // Just before the run's first event, or the thread's last one when it stored none yet.
  const afterSeq = resumeAfter ?? (await followTarget(db(), params.threadId, run.id))?.after ?? 0;
  return streamRun({
    db: db(),
    userId: user.id,
    threadId: params.threadId,
    runId: run.id,
    afterSeq,
    startCheckpointId: resumeAfter !== null ? "latest" : (run.job?.startCheckpointId ?? null),
    modes: new Set(query.stream_mode ?? ["values"]),
    signal: req.signal,
    view: ({ role }) => stateViewFor(db(), params.threadId, role),
    cancelOnDisconnect: query.cancel_on_disconnect === true,
  });
});
