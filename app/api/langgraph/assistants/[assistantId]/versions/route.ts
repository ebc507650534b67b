// POST /api/langgraph/assistants/:assistantId/versions - the flow's published versions as assistant versions, newest first.
import { db } from "@/lib/db/client";
import { assistantVersions } from "@/lib/langgraph-api/assistants";
import { withPlatform } from "@/lib/langgraph-api/route";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ params: Params, body: Body }, async (_req, { user, params, body }) => Response.json(await assistantVersions(db(), user, params.assistantId, body)));
