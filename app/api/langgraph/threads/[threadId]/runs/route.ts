// POST /api/langgraph/threads/:threadId/runs - start a run in the background (runs.create); GET - the thread's runs (runs.list).
import { db } from "@/lib/db/client";
import { threadAccess } from "@/lib/auth/membership";
import { platformRun } from "@/lib/langgraph-api/run-view";
import { platformRunStatus } from "@/lib/langgraph-api/status";
import { withPlatform } from "@/lib/langgraph-api/route";
import { acceptRun, runResponse } from "@/lib/langgraph-api/runs-api";
import { Body, ListQuery, Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ params: Params, body: Body }, async (_req, { user, params, body }) => {
  const accepted = await acceptRun(db(), user, params.threadId, body);
  return runResponse(db(), accepted.access ?? user.id, params.threadId, accepted.runId);
});

export const GET = withPlatform({ params: Params, query: ListQuery }, async (_req, { user, params, query }) => {
  const { thread } = await threadAccess(db(), user.id, params.threadId);
  const rows = await db().run.findMany({ where: { threadId: thread.id }, orderBy: { startedAt: "desc" } });
  const runs = rows.map((r) => platformRun(r, thread.flowId)).filter((r) => !query.status || platformRunStatus(r.phylactery_status) === query.status);
  return Response.json(runs.slice(query.offset, query.offset + query.limit));
});
