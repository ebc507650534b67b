// POST /api/langgraph/threads/:threadId/state/checkpoint - the thread's state at the checkpoint the body names.
import { db } from "@/lib/db/client";
import { withPlatform } from "@/lib/langgraph-api/route";
import { resolveThread, threadState } from "@/lib/langgraph-api/threads";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withPlatform({ params: Params, body: Body }, async (_req, { user, params, body }) =>
  Response.json(await threadState(db(), await resolveThread(db(), user, params.threadId), body.checkpoint)),
);
