import "server-only";
import type { Db } from "../db/client";
import { MCP_PREFIX } from "../mcp/naming";
import { mcpToolDefinitions } from "../mcp/tools";
import { builtinRegistry, createToolRegistry, type ToolRegistry } from "./registry";

/**
 * The tools a workspace's flows may use (docs/architecture.md#tools-and-mcp): the built-ins and the tools of
 * the workspace's MCP servers, as last listed. Read when a run starts, a thread is created
 * or the editor opens.
 * @param needed the tool names the caller will look up (e.g. a flow's tool nodes); when
 *   none of them is an MCP tool (`mcp__…`), the built-ins are returned without a query.
 */
export async function workspaceToolRegistry(db: Db, workspaceId: string, needed?: Iterable<string>): Promise<ToolRegistry> {
  if (needed && ![...needed].some((name) => name.startsWith(MCP_PREFIX))) return builtinRegistry;
  const { tools, sources } = await mcpToolDefinitions(db, workspaceId);
  return createToolRegistry(tools, sources);
}
