// PATCH|DELETE /api/workspaces/:workspaceId/webhooks/:webhookId - change a webhook (url, events, enabled) or delete it with its log (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { WEBHOOK_REFUSAL } from "@/lib/webhooks/owner";
import { deleteWebhook, updateWebhook } from "@/lib/webhooks/endpoints";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const PATCH = withUser({ params: Params, body: Body, need: { capability: "manage", refusal: WEBHOOK_REFUSAL, workspace: "workspaceId" } }, async (_req, { params, access, body }) =>
  Response.json({ webhook: await updateWebhook(db(), access, params.workspaceId, params.webhookId, body) }),
);

export const DELETE = withUser({ params: Params, need: { capability: "manage", refusal: WEBHOOK_REFUSAL, workspace: "workspaceId" } }, async (_req, { params, access }) => {
  await deleteWebhook(db(), access, params.workspaceId, params.webhookId);
  return new Response(null, { status: 204 });
});
