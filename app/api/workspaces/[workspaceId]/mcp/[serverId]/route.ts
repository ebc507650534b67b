// PATCH|DELETE /api/workspaces/:workspaceId/mcp/:serverId - change an MCP server and list its tools again, or remove it (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { removeServer, updateServer } from "@/lib/mcp/servers";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const PATCH = withUser({ params: Params, body: Body }, async (_req, { user, params, body }) =>
  Response.json({ server: await updateServer(db(), user.id, params.workspaceId, params.serverId, body) }),
);

export const DELETE = withUser({ params: Params }, async (_req, { user, params }) => {
  await removeServer(db(), user.id, params.workspaceId, params.serverId);
  return new Response(null, { status: 204 });
});
