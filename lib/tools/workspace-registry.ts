import "server-only";
import type { Db } from "../db/client";
import { mcpToolDefinitions } from "../mcp/tools";
import { createToolRegistry, type ToolRegistry } from "./registry";

/**
 * The tools a workspace's flows may use (SPEC.md 7, issue 6): the built-ins and the tools of
 * the workspace's MCP servers, as last listed. Read when a run starts, a thread is created
 * or the editor opens.
 */
export async function workspaceToolRegistry(db: Db, workspaceId: string): Promise<ToolRegistry> {
  const { tools, sources } = await mcpToolDefinitions(db, workspaceId);
  return createToolRegistry(tools, sources);
}
