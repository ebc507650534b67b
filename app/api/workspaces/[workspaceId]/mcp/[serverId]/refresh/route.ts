// POST /api/workspaces/:workspaceId/mcp/:serverId/refresh - connect to an MCP server and list its tools again (owners only).
import { db } from "@/lib/db/client";
import { withUser } from "@/lib/http/with-user";
import { refreshServer } from "@/lib/mcp/servers";
import { Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params }, async (_req, { user, params }) => Response.json({ server: await refreshServer(db(), user.id, params.workspaceId, params.serverId) }));
