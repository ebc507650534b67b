// POST /api/langgraph/threads/:threadId/history - the thread's past states, newest first.
import { db } from "@/lib/db/client";
import { withPlatform } from "@/lib/langgraph-api/route";
import { resolveThread, threadHistory } from "@/lib/langgraph-api/threads";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ params: Params, body: Body }, async (_req, { user, params, body }) =>
  Response.json(await threadHistory(db(), await resolveThread(db(), user, params.threadId), body)),
);
