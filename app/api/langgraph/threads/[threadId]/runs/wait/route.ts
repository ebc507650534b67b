// POST /api/langgraph/threads/:threadId/runs/wait - start a run and answer its final state (runs.wait).
import { db } from "@/lib/db/client";
import { threadAccess } from "@/lib/auth/membership";
import { withPlatform } from "@/lib/langgraph-api/route";
import { acceptRun, finalValues, runLocation, waitForRun } from "@/lib/langgraph-api/runs-api";
import { stateViewFor } from "@/lib/langgraph-api/state-view";
import { threadStateReader } from "@/lib/langgraph-api/thread-state-reader";
import { Body, Params } from "../schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ params: Params, body: Body }, async (req, { user, params, body }) => {
  const accepted = await acceptRun(db(), user, params.threadId, body);
  await waitForRun(db(), accepted.runId, req.signal);
  const access = await threadAccess(db(), user.id, params.threadId);
  const values = await finalValues(db(), threadStateReader(db(), access.thread, stateViewFor(db(), params.threadId, access.role)), accepted.runId);
  return Response.json(values, { headers: { "content-location": runLocation(params.threadId, accepted.runId) } });
});
