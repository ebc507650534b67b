// GET /api/langgraph/assistants/:assistantId/subgraphs - {}: a flow's graph has no subgraphs.
import { db } from "@/lib/db/client";
import { getAssistant } from "@/lib/langgraph-api/assistants";
import { withPlatform } from "@/lib/langgraph-api/route";
import { Params, Query } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withPlatform({ params: Params, query: Query }, async (_req, { user, params }) => {
  await getAssistant(db(), user, params.assistantId);
  return Response.json({});
});
