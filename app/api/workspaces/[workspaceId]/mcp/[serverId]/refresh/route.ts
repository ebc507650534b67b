// POST /api/workspaces/:workspaceId/mcp/:serverId/refresh - connect to an MCP server and list its tools again (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { MCP_REFUSAL, refreshServer } from "@/lib/mcp/servers";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params, need: { capability: "manage", refusal: MCP_REFUSAL, workspace: "workspaceId" } }, async (_req, { params, access }) =>
  Response.json({ server: await refreshServer(db(), access, params.workspaceId, params.serverId) }),
);
