// POST /api/workspaces/:workspaceId/webhooks/:webhookId/deliveries/:deliveryId/redeliver - send a delivery's body again as a new delivery (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { WEBHOOK_REFUSAL } from "@/lib/webhooks/owner";
import { redeliver } from "@/lib/webhooks/deliveries";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params, need: { capability: "manage", refusal: WEBHOOK_REFUSAL, workspace: "workspaceId" } }, async (_req, { params, access }) =>
  Response.json({ delivery: await redeliver(db(), access, params.workspaceId, params.webhookId, params.deliveryId) }, { status: 202 }),
);
