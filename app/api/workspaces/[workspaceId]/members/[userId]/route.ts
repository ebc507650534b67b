// PATCH|DELETE /api/workspaces/:workspaceId/members/:userId - change a member's role or remove them (owners only; a workspace keeps an owner).
import { db } from "@/lib/db/client";
import { removeMember, setRole } from "@/lib/db/members";
import { withUser } from "@/lib/http/with-user";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const PATCH = withUser({ params: Params, body: Body }, async (_req, { user, params, body }) =>
  Response.json({ member: await setRole(db(), user.id, params.workspaceId, params.userId, body.role) }),
);

export const DELETE = withUser({ params: Params }, async (_req, { user, params }) => {
  await removeMember(db(), user.id, params.workspaceId, params.userId);
  return new Response(null, { status: 204 });
});
