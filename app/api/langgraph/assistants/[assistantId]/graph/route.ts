// GET /api/langgraph/assistants/:assistantId/graph[?xray=] - the drawing of the flow's compiled LangGraph graph ({ nodes, edges }).
import { db } from "@/lib/db/client";
import { assistantGraph } from "@/lib/langgraph-api/assistant-graph";
import { withPlatform } from "@/lib/langgraph-api/route";
import { Params, Query } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withPlatform({ params: Params, query: Query }, async (_req, { user, params, query }) => Response.json(await assistantGraph(db(), user, params.assistantId, query.xray ?? false)));
