// GET /api/langgraph/threads/:threadId/state/:checkpointId - the thread's state at one checkpoint.
import { db } from "@/lib/db/client";
import { withPlatform } from "@/lib/langgraph-api/route";
import { resolveThread, threadState } from "@/lib/langgraph-api/threads";
import { Params, Query } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withPlatform({ params: Params, query: Query }, async (_req, { user, params }) =>
  Response.json(await threadState(db(), await resolveThread(db(), user, params.threadId), { checkpoint_id: params.checkpointId })),
);
