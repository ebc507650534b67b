// POST /api/langgraph/threads/:threadId/runs/:runId/cancel - cancel a queued or executing run (runs.cancel, action interrupt); with wait=1, answer once it ended (409 when it ended on its own first).
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { withPlatform } from "@/lib/langgraph-api/route";
import { cancelRun, runResponse, waitForRun } from "@/lib/langgraph-api/runs-api";
import { CancelQuery, RunParams } from "../../schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ params: RunParams, query: CancelQuery }, async (req, { user, params, query }) => {
  await cancelRun(db(), user.id, params.threadId, params.runId);
  if (query.wait) {
    // An executing run is stopped by its worker's next heartbeat; it may reach its own end first.
    const status = await waitForRun(db(), params.runId, req.signal);
    if (status !== "cancelled" && !req.signal.aborted) {
      throw new AppError("conflict", "run_not_active", `Run ${params.runId} ended as ${status} before the cancel took effect.`);
    }
  }
  return runResponse(db(), user.id, params.threadId, params.runId, 202);
});
