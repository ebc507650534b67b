// DELETE /api/memory/facts/:factId - forget a fact and every fact promoted from the same source (right to erasure; owners and approvers).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { MEMORY_REFUSAL } from "@/lib/memory/access";
import { forgetFact } from "@/lib/memory/long-term";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const DELETE = withUser({ params: Params, need: { capability: "remember", refusal: MEMORY_REFUSAL, fact: "factId" } }, async (_req, { user, params }) => {
  return Response.json(await forgetFact(db(), { factId: params.factId, actorId: user.id }));
});
