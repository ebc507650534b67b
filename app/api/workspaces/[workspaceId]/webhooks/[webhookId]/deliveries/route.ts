// GET /api/workspaces/:workspaceId/webhooks/:webhookId/deliveries - a webhook's last 50 deliveries, newest first, with their bodies (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { listDeliveries } from "@/lib/webhooks/deliveries";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params }, async (_req, { user, params }) =>
  Response.json({ deliveries: await listDeliveries(db(), user.id, params.workspaceId, params.webhookId) }),
);
