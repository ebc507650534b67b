// GET|POST /api/workspaces/:workspaceId/mcp - list the workspace's MCP servers (any member); add one and list its tools (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { addServer, listServers } from "@/lib/mcp/servers";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params }, async (_req, { user, params }) => Response.json({ servers: await listServers(db(), user.id, params.workspaceId) }));

export const POST = withUser({ params: Params, body: Body }, async (_req, { user, params, body }) =>
  Response.json({ server: await addServer(db(), user.id, params.workspaceId, body) }, { status: 201 }),
);
