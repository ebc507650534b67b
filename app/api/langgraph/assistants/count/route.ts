// POST /api/langgraph/assistants/count - how many of the caller's flows match the filters.
import { db } from "@/lib/db/client";
import { countAssistants } from "@/lib/langgraph-api/assistants";
import { withPlatform } from "@/lib/langgraph-api/route";
import { Body } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ body: Body }, async (_req, { user, body }) => Response.json(await countAssistants(db(), user, body)));
