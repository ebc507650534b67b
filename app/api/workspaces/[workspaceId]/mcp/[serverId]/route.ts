// PATCH|DELETE /api/workspaces/:workspaceId/mcp/:serverId - change an MCP server and list its tools again, or remove it (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { MCP_REFUSAL, removeServer, updateServer } from "@/lib/mcp/servers";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const PATCH = withUser({ params: Params, body: Body, need: { capability: "manage", refusal: MCP_REFUSAL, workspace: "workspaceId" } }, async (_req, { params, access, body }) =>
  Response.json({ server: await updateServer(db(), access, params.workspaceId, params.serverId, body) }),
);

export const DELETE = withUser({ params: Params, need: { capability: "manage", refusal: MCP_REFUSAL, workspace: "workspaceId" } }, async (_req, { params, access }) => {
  await removeServer(db(), access, params.workspaceId, params.serverId);
  return new Response(null, { status: 204 });
});
