// PUT|DELETE /api/workspaces/:workspaceId/secrets/:name - replace a secret's value or hosts, or delete it (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { deleteSecret, replaceSecret } from "@/lib/workspace-secrets/service";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const PUT = withUser({ params: Params, body: Body }, async (_req, { user, params, body }) =>
  Response.json({ secret: await replaceSecret(db(), user.id, params.workspaceId, params.name, body) }),
);

export const DELETE = withUser({ params: Params }, async (_req, { user, params }) => {
  await deleteSecret(db(), user.id, params.workspaceId, params.name);
  return new Response(null, { status: 204 });
});
