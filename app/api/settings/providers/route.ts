// GET|PUT|DELETE /api/settings/providers - the user's model providers; API keys are write-only (sealed at rest, never returned). Account-level: a key scoped to one workspace is refused (403).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { deleteProvider, listProviders, saveProvider } from "@/lib/models/provider-settings";
import { Body, DeleteQuery } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ accountLevel: true }, async (_req, { user }) => Response.json({ providers: await listProviders(db(), user.id) }));

export const PUT = withUser({ body: Body, accountLevel: true }, async (_req, { user, body }) => Response.json(await saveProvider(db(), user.id, body)));

export const DELETE = withUser({ query: DeleteQuery, accountLevel: true }, async (_req, { user, query }) => {
  await deleteProvider(db(), user.id, query.provider);
  return new Response(null, { status: 204 });
});
