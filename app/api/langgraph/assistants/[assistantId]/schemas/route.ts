// GET /api/langgraph/assistants/:assistantId/schemas - JSON Schemas of the graph's input, output, state, config and context.
import { db } from "@/lib/db/client";
import { getAssistant } from "@/lib/langgraph-api/assistants";
import { graphSchemas } from "@/lib/langgraph-api/graph-schemas";
import { withPlatform } from "@/lib/langgraph-api/route";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withPlatform({ params: Params }, async (_req, { user, params }) => {
  const a = await getAssistant(db(), user, params.assistantId);
  return Response.json(graphSchemas(a.graph_id));
});
