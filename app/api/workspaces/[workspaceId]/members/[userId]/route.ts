// PATCH|DELETE /api/workspaces/:workspaceId/members/:userId - change a member's role or remove them (owners only; a workspace keeps an owner).
import { db } from "@/lib/db/client";
import { removeMember, setRole } from "@/lib/db/members";
import { withUser } from "@/lib/http/with-user";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const PATCH = withUser({ params: Params, body: Body, need: { capability: "manage", workspace: "workspaceId" } }, async (_req, { params, access, body }) =>
  Response.json({ member: await setRole(db(), access, params.workspaceId, params.userId, body.role) }),
);

export const DELETE = withUser({ params: Params, need: { capability: "manage", workspace: "workspaceId" } }, async (_req, { params, access }) => {
  await removeMember(db(), access, params.workspaceId, params.userId);
  return new Response(null, { status: 204 });
});
