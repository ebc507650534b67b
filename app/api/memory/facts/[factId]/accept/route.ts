// POST /api/memory/facts/:factId/accept - accept a proposed fact so that agents retrieve it (owners and approvers).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { factAccess, requireFactEditor } from "@/lib/memory/access";
import { acceptFact } from "@/lib/memory/long-term";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params }, async (_req, { user, params }) => {
  const { role } = await factAccess(db(), user.id, params.factId);
  requireFactEditor(role);
  return Response.json({ fact: await acceptFact(db(), { factId: params.factId, userId: user.id }) });
});
