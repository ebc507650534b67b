// GET /api/langgraph/threads/:threadId/runs/:runId/join - wait for a run to end and answer the thread's state (runs.join).
import { db } from "@/lib/db/client";
import { withPlatform } from "@/lib/langgraph-api/route";
import { cancelRun, finalValues, runOf, waitForRun } from "@/lib/langgraph-api/runs-api";
import { isRunActive } from "@/lib/langgraph-api/run-view";
import { stateViewFor } from "@/lib/langgraph-api/state-view";
import { threadStateReader } from "@/lib/langgraph-api/thread-state-reader";
import { JoinQuery, RunParams } from "../../schema";

export const dynamic = "force-dynamic";

export const GET = withPlatform({ params: RunParams, query: JoinQuery }, async (req, { user, params, query }) => {
  const { thread, role } = await runOf(db(), user.id, params.threadId, params.runId);
  const status = await waitForRun(db(), params.runId, req.signal);
  if (req.signal.aborted && query.cancel_on_disconnect && isRunActive(status)) await cancelRun(db(), user.id, params.threadId, params.runId).catch(() => undefined);
  return Response.json(await finalValues(db(), threadStateReader(db(), thread, stateViewFor(db(), params.threadId, role)), params.runId));
});
