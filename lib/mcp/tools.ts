import "server-only";
import type { Db } from "../db/client";
import type { ToolDefinition } from "../tools/types";

/**
 * The tools of a workspace's MCP servers as tool definitions (issue 6), with the source of
 * each ("mcp:<server name>") by tool name. Placeholder until the MCP client lands: none.
 */
export async function mcpToolDefinitions(_db: Db, _workspaceId: string): Promise<{ tools: ToolDefinition[]; sources: Record<string, string> }> {
  return { tools: [], sources: {} };
}
