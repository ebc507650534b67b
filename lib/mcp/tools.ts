import "server-only";
import type { Db } from "../db/client";
import type { ToolDefinition } from "../tools/types";
import { serverToolDefinitions } from "./definitions";
import { workspaceSecretSource } from "./secret-references";

/**
 * The tools of a workspace's MCP servers as tool definitions, as last listed (see
 * refreshServer), with the source of each ("mcp:<server name>") by tool name. Reading them
 * connects to no server: a connection opens on the first call, with the workspace's secrets
 * for `{{secret:NAME}}` in the server's headers or env (docs/secrets.md "MCP servers").
 */
export async function mcpToolDefinitions(db: Db, workspaceId: string): Promise<{ tools: ToolDefinition[]; sources: Record<string, string> }> {
  const rows = await db.mcpServer.findMany({ where: { workspaceId }, orderBy: { name: "asc" } });
  const tools: ToolDefinition[] = [];
  const sources: Record<string, string> = {};
  const secretSource = workspaceSecretSource(db, workspaceId);
  for (const row of rows) {
    for (const def of serverToolDefinitions({ ...row, secretSource })) {
      tools.push(def);
      sources[def.name] = `mcp:${row.name}`;
    }
  }
  return { tools, sources };
}
