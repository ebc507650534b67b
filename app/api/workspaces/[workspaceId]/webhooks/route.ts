// GET|POST /api/workspaces/:workspaceId/webhooks - list the workspace's webhooks; add one, answering its signing secret once (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { addWebhook, listWebhooks } from "@/lib/webhooks/endpoints";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params }, async (_req, { user, params }) => Response.json({ webhooks: await listWebhooks(db(), user.id, params.workspaceId) }));

export const POST = withUser({ params: Params, body: Body }, async (_req, { user, params, body }) => Response.json(await addWebhook(db(), user.id, params.workspaceId, body), { status: 201 }));
