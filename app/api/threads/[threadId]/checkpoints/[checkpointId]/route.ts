// GET /api/threads/:threadId/checkpoints/:checkpointId - the state at one checkpoint, tokens and secrets redacted.
import { db } from "@/lib/db/client";
import { stateAt } from "@/lib/engine/time-travel";
import { withUser } from "@/lib/http/with-user";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, need: { capability: "see", thread: "threadId" } }, async (_req, { params, access }) => {
  return Response.json(await stateAt(db(), access, params.threadId, params.checkpointId));
});
