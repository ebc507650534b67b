// DELETE /api/keys/:keyId - revoke one of the user's API keys (it answers 401 from then on; revoking twice is fine). Sessions only.
import { revokeApiKey } from "@/lib/auth/api-keys";
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const DELETE = withUser({ params: Params, sessionOnly: true }, async (_req, { user, params }) => {
  await revokeApiKey(db(), user.id, params.keyId);
  return Response.json({ revoked: true });
});
