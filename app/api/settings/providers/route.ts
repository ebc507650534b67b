// GET|PUT|DELETE /api/settings/providers - the user's model providers; API keys are write-only (sealed at rest, never returned).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { deleteProvider, listProviders, saveProvider } from "@/lib/models/provider-settings";
import { Body, DeleteQuery } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({}, async (_req, { user }) => Response.json({ providers: await listProviders(db(), user.id) }));

export const PUT = withUser({ body: Body }, async (_req, { user, body }) => Response.json(await saveProvider(db(), user.id, body)));

export const DELETE = withUser({}, async (req, { user }) => {
  const { provider } = DeleteQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
  await deleteProvider(db(), user.id, provider);
  return new Response(null, { status: 204 });
});
