// POST /api/langgraph/assistants/search - the flows of the caller's workspaces as LangGraph assistants.
import { db } from "@/lib/db/client";
import { searchAssistants } from "@/lib/langgraph-api/assistants";
import { pick } from "@/lib/langgraph-api/input";
import { withPlatform } from "@/lib/langgraph-api/route";
import { Body } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ body: Body }, async (_req, { user, body }) => {
  const found = await searchAssistants(db(), user, body, body);
  return Response.json(pick(found, body.select));
});
