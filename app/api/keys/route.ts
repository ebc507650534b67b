// GET|POST /api/keys - list the user's API keys; make one (201 with the key, shown only this once). Sessions only: a key never manages keys.
import { createApiKey, listApiKeys } from "@/lib/auth/api-keys";
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, sessionOnly: true }, async (_req, { user }) => Response.json({ keys: await listApiKeys(db(), user.id) }, { headers: { "cache-control": "no-store" } }));

export const POST = withUser({ params: Params, body: Body, sessionOnly: true }, async (_req, { user, body }) => {
  const { key, view } = await createApiKey(db(), user.id, body);
  return Response.json({ id: view.id, name: view.name, prefix: view.prefix, workspaceId: view.workspaceId, createdAt: view.createdAt, key }, { status: 201, headers: { "cache-control": "no-store" } });
});
