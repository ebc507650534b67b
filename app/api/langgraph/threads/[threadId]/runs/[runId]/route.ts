// GET /api/langgraph/threads/:threadId/runs/:runId - one run (runs.get); DELETE - delete a run that has ended (runs.delete).
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { isRunActive } from "@/lib/langgraph-api/run-view";
import { withPlatform } from "@/lib/langgraph-api/route";
import { runOf, runResponse } from "@/lib/langgraph-api/runs-api";
import { RunParams } from "../schema";

export const dynamic = "force-dynamic";

export const GET = withPlatform({ params: RunParams }, async (_req, { user, params }) => runResponse(db(), user.id, params.threadId, params.runId));

/**
 * Deletes an ended run's record and its events; the thread's checkpoints stay (they belong to
 * the thread's history, docs/langgraph-api.md#runs). Owners and approvers only.
 */
export const DELETE = withPlatform({ params: RunParams }, async (_req, { user, params }) => {
  const { run, role } = await runOf(db(), user.id, params.threadId, params.runId);
  if (role === "viewer") throw new AppError("forbidden", "role_forbidden", "Your role in this workspace is viewer; it cannot delete runs.");
  if (isRunActive(run.status)) throw new AppError("conflict", "run_in_progress", `Run ${run.id} has not ended; cancel it first.`);
  await db().run.delete({ where: { id: run.id } });
  return new Response(null, { status: 204 });
});
