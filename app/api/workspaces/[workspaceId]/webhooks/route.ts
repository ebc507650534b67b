// GET|POST /api/workspaces/:workspaceId/webhooks - list the workspace's webhooks; add one, answering its signing secret once (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { WEBHOOK_REFUSAL } from "@/lib/webhooks/owner";
import { addWebhook, listWebhooks } from "@/lib/webhooks/endpoints";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, need: { capability: "manage", refusal: WEBHOOK_REFUSAL, workspace: "workspaceId" } }, async (_req, { params, access }) =>
  Response.json({ webhooks: await listWebhooks(db(), access, params.workspaceId) }),
);

export const POST = withUser({ params: Params, body: Body, need: { capability: "manage", refusal: WEBHOOK_REFUSAL, workspace: "workspaceId" } }, async (_req, { params, access, body }) =>
  Response.json(await addWebhook(db(), access, params.workspaceId, body), { status: 201 }),
);
