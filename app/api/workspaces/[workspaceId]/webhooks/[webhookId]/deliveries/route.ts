// GET /api/workspaces/:workspaceId/webhooks/:webhookId/deliveries - a webhook's last 50 deliveries, newest first, with their bodies (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { WEBHOOK_REFUSAL } from "@/lib/webhooks/owner";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, need: { capability: "manage", refusal: WEBHOOK_REFUSAL, workspace: "workspaceId" } }, async (_req, { params, access }) =>
  Response.json({ deliveries: await listDeliveries(db(), access, params.workspaceId, params.webhookId) }),
);
