// GET /api/langgraph/assistants/:assistantId - one flow as a LangGraph assistant; PATCH and DELETE are not offered (405: edit flows in the editor).
import { db } from "@/lib/db/client";
import { getAssistant } from "@/lib/langgraph-api/assistants";
import { withPlatform } from "@/lib/langgraph-api/route";
import { ASSISTANTS_ARE_FLOWS, unsupported } from "@/lib/langgraph-api/unsupported";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withPlatform({ params: Params }, async (_req, { user, params }) => Response.json(await getAssistant(db(), user, params.assistantId)));

// Another workspace's flow does not exist for the caller: 404 before the 405.
export const PATCH = withPlatform({ params: Params }, async (_req, { user, params }) => {
  await getAssistant(db(), user, params.assistantId);
  return unsupported(ASSISTANTS_ARE_FLOWS);
});

export const DELETE = withPlatform({ params: Params }, async (_req, { user, params }) => {
  await getAssistant(db(), user, params.assistantId);
  return unsupported(`${ASSISTANTS_ARE_FLOWS} Delete a flow from its page.`);
});
