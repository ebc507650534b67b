import "server-only";
import type { Db } from "../db/client";
import type { ToolDefinition } from "../tools/types";
import { serverToolDefinitions } from "./definitions";

/**
 * The tools of a workspace's MCP servers as tool definitions, as last listed (see
 * refreshServer), with the source of each ("mcp:<server name>") by tool name. Reading them
 * connects to no server: a connection opens on the first call.
 */
export async function mcpToolDefinitions(db: Db, workspaceId: string): Promise<{ tools: ToolDefinition[]; sources: Record<string, string> }> {
  const rows = await db.mcpServer.findMany({ where: { workspaceId }, orderBy: { name: "asc" } });
  const tools: ToolDefinition[] = [];
  const sources: Record<string, string> = {};
  for (const row of rows) {
    for (const def of serverToolDefinitions(row)) {
      tools.push(def);
      sources[def.name] = `mcp:${row.name}`;
    }
  }
  return { tools, sources };
}
