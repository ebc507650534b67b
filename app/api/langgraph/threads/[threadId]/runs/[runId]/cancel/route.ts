// POST /api/langgraph/threads/:threadId/runs/:runId/cancel - cancel a queued or executing run (runs.cancel, action interrupt).
import { db } from "@/lib/db/client";
import { withPlatform } from "@/lib/platform/route";
import { cancelRun, runResponse, waitForRun } from "@/lib/platform/runs-api";
import { CancelQuery, RunParams } from "../../schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ params: RunParams, query: CancelQuery }, async (req, { user, params, query }) => {
  await cancelRun(db(), user.id, params.threadId, params.runId);
  if (query.wait) await waitForRun(db(), params.runId, req.signal);
  return runResponse(db(), user.id, params.threadId, params.runId, 202);
});
