// POST /api/invitations/:invitationId/decline - decline an invitation (the invitee only; 404 for anyone else); 204.
import { db } from "@/lib/db/client";
import { declineInvitation } from "@/lib/db/invitation-answers";
import { withUser } from "@/lib/http/with-user";
import { Params } from "../schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params }, async (_req, { user, params }) => {
  await declineInvitation(db(), user.id, params.invitationId);
  return new Response(null, { status: 204 });
});
