// POST /api/langgraph/threads/search - the caller's visible threads (their workspaces' and their own API threads) matching the filters.
import { db } from "@/lib/db/client";
import { pick } from "@/lib/langgraph-api/input";
import { withPlatform } from "@/lib/langgraph-api/route";
import { searchThreads } from "@/lib/langgraph-api/thread-search";
import { Body } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ body: Body }, async (_req, { user, body }) => Response.json(pick(await searchThreads(db(), user, body, body), body.select)));
