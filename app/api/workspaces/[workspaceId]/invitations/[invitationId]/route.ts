// DELETE /api/workspaces/:workspaceId/invitations/:invitationId - revoke a pending invitation (owners only); 204.
import { db } from "@/lib/db/client";
import { revokeInvitation } from "@/lib/db/invitations";
import { withUser } from "@/lib/http/with-user";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const DELETE = withUser({ params: Params, need: { capability: "manage", workspace: "workspaceId" } }, async (_req, { params, access }) => {
  await revokeInvitation(db(), access, params.workspaceId, params.invitationId);
  return new Response(null, { status: 204 });
});
