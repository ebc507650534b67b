// PUT|DELETE /api/workspaces/:workspaceId/secrets/:name - replace a secret's value or hosts, or delete it (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { deleteSecret, replaceSecret, SECRETS_REFUSAL } from "@/lib/workspace-secrets/service";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const PUT = withUser({ params: Params, body: Body, need: { capability: "manage", refusal: SECRETS_REFUSAL, workspace: "workspaceId" } }, async (_req, { params, access, body }) =>
  Response.json({ secret: await replaceSecret(db(), access, params.workspaceId, params.name, body) }),
);

export const DELETE = withUser({ params: Params, need: { capability: "manage", refusal: SECRETS_REFUSAL, workspace: "workspaceId" } }, async (_req, { params, access }) => {
  await deleteSecret(db(), access, params.workspaceId, params.name);
  return new Response(null, { status: 204 });
});
