// POST /api/memory/facts/:factId/accept - accept a proposed fact so that agents retrieve it (owners and approvers).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { MEMORY_REFUSAL } from "@/lib/memory/access";
import { acceptFact } from "@/lib/memory/long-term";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params, need: { capability: "remember", refusal: MEMORY_REFUSAL, fact: "factId" } }, async (_req, { user, params }) => {
  return Response.json({ fact: await acceptFact(db(), { factId: params.factId, userId: user.id }) });
});
