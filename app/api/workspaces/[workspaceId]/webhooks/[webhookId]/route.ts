// PATCH|DELETE /api/workspaces/:workspaceId/webhooks/:webhookId - change a webhook (url, events, enabled) or delete it with its log (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { deleteWebhook, updateWebhook } from "@/lib/webhooks/endpoints";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const PATCH = withUser({ params: Params, body: Body }, async (_req, { user, params, body }) =>
  Response.json({ webhook: await updateWebhook(db(), user.id, params.workspaceId, params.webhookId, body) }),
);

export const DELETE = withUser({ params: Params }, async (_req, { user, params }) => {
  await deleteWebhook(db(), user.id, params.workspaceId, params.webhookId);
  return new Response(null, { status: 204 });
});
