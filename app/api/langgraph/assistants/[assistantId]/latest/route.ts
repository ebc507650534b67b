// POST /api/langgraph/assistants/:assistantId/latest - not offered (405): the latest version is the one last published in the editor.
import { db } from "@/lib/db/client";
import { getAssistant } from "@/lib/langgraph-api/assistants";
import { withPlatform } from "@/lib/langgraph-api/route";
import { ASSISTANTS_ARE_FLOWS, unsupported } from "@/lib/langgraph-api/unsupported";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ params: Params }, async (_req, { user, params }) => {
  await getAssistant(db(), user, params.assistantId);
  return unsupported(`${ASSISTANTS_ARE_FLOWS} The latest version is always the one last published.`);
});
