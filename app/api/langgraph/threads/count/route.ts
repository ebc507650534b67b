// POST /api/langgraph/threads/count - how many of the caller's visible threads match the filters.
import { db } from "@/lib/db/client";
import { withPlatform } from "@/lib/langgraph-api/route";
import { countThreads } from "@/lib/langgraph-api/thread-search";
import { Body } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ body: Body }, async (_req, { user, body }) => Response.json(await countThreads(db(), user, body)));
