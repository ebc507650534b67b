import { Params as RefreshParams } from "@/app/api/workspaces/[workspaceId]/mcp/[serverId]/refresh/schema";
import { Body as PatchBody, Params as ServerParams } from "@/app/api/workspaces/[workspaceId]/mcp/[serverId]/schema";
import { Body as NewServerBody, Params as ServersParams } from "@/app/api/workspaces/[workspaceId]/mcp/schema";
import type { ApiOperation } from "@/lib/openapi/operation";

const TAG = "MCP";

/** MCP operations: the operator's stdio commands, a workspace's servers. Secrets are write-only. */
export const mcpOperations: ApiOperation[] = [
  {
    method: "GET",
    path: "/api/mcp/commands",
    tag: TAG,
    summary: "List the stdio commands",
    description: "The stdio MCP commands the operator enabled: names, descriptions and the values to pick for their placeholders (never their command lines).",
    auth: "session-or-key",
    responses: { 200: { description: "`{ commands }`." } },
  },
  {
    method: "GET",
    path: "/api/workspaces/{workspaceId}/mcp",
    tag: TAG,
    summary: "List a workspace's MCP servers",
    description: "The servers and the tools they last listed (any member); secrets show only whether they are set.",
    auth: "session-or-key",
    params: ServersParams,
    responses: { 200: { description: "`{ servers }`." } },
  },
  {
    method: "POST",
    path: "/api/workspaces/{workspaceId}/mcp",
    tag: TAG,
    summary: "Add an MCP server",
    description:
      "Adds a server reached over stdio (one of the operator's commands, by name) or Streamable HTTP (a URL; private addresses only when the operator allows them), then lists its tools (owners only).",
    auth: "session-or-key",
    params: ServersParams,
    body: NewServerBody,
    responses: { 201: { description: "`{ server }`, with `lastError` when listing its tools failed." }, 403: { description: "Only owners add servers." } },
  },
  {
    method: "PATCH",
    path: "/api/workspaces/{workspaceId}/mcp/{serverId}",
    tag: TAG,
    summary: "Change an MCP server",
    description: "Changes its command and values (stdio) or URL (http), sets (string) or removes (null) secrets, then lists its tools again (owners only).",
    auth: "session-or-key",
    params: ServerParams,
    body: PatchBody,
    responses: { 200: { description: "`{ server }`." }, 403: { description: "Only owners change servers." } },
  },
  {
    method: "DELETE",
    path: "/api/workspaces/{workspaceId}/mcp/{serverId}",
    tag: TAG,
    summary: "Remove an MCP server",
    description: "Owners only.",
    auth: "session-or-key",
    params: ServerParams,
    responses: { 204: { description: "Removed." }, 403: { description: "Only owners remove servers." } },
  },
  {
    method: "POST",
    path: "/api/workspaces/{workspaceId}/mcp/{serverId}/refresh",
    tag: TAG,
    summary: "List a server's tools again",
    description: "Connects to the server and lists its tools again (owners only). The request has no body.",
    auth: "session-or-key",
    params: RefreshParams,
    responses: { 200: { description: "`{ server }`." }, 403: { description: "Only owners refresh servers." } },
  },
];
