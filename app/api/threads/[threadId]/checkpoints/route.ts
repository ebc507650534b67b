// GET /api/threads/:threadId/checkpoints[?limit=&before=] - the thread's checkpoints, newest first (time travel).
import { db } from "@/lib/db/client";
import { listCheckpoints } from "@/lib/engine/time-travel";
import { withUser } from "@/lib/http/with-user";
import { Params, Query } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, query: Query, need: { capability: "see", thread: "threadId" } }, async (_req, { params, query, access }) => {
  const page = await listCheckpoints(db(), access, params.threadId, query);
  return Response.json(page);
});
