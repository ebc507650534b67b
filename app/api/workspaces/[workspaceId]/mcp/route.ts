// GET|POST /api/workspaces/:workspaceId/mcp - list the workspace's MCP servers (any member); add one and list its tools (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { addServer, listServers, MCP_REFUSAL } from "@/lib/mcp/servers";
import { Body, Params } from "./schema";

export const dynamic = "force-dynamic";

export const GET = withUser({ params: Params, need: { capability: "see", workspace: "workspaceId" } }, async (_req, { params, access }) =>
  Response.json({ servers: await listServers(db(), access, params.workspaceId) }),
);

export const POST = withUser({ params: Params, body: Body, need: { capability: "manage", refusal: MCP_REFUSAL, workspace: "workspaceId" } }, async (_req, { params, access, body }) =>
  Response.json({ server: await addServer(db(), access, params.workspaceId, body) }, { status: 201 }),
);
