import "server-only";
import { CONNECT_TIMEOUT_MS, describeMcpFailure, type McpConnectionConfig, withMcpClient } from "./client-pool";
import { redactValues } from "../workspace-secrets/references";
import type { StoredTool } from "./config";

/** Most tools stored of one server. */
export const MAX_TOOLS = 500;
/** Most pages of `tools/list` read. */
const MAX_PAGES = 50;
/** Largest stored tool list (JSON), chars. */
export const MAX_TOOLS_JSON = 2_000_000;

/** What a listing found: the tools, or the message that says what to do. */
export type Discovery = { ok: true; tools: StoredTool[] } | { ok: false; error: string };

/**
 * Connects to a server (through the pool) and lists its tools with `tools/list`, following
 * `nextCursor` (MCP 2025-06-18), keeping name, description, input schema and annotations.
 * Never throws: a failure is described for the owner (see describeFailure).
 */
export async function discoverTools(server: McpConnectionConfig): Promise<Discovery> {
  try {
    const tools = await withMcpClient(
      server,
      async (client, used) => {
        const found: StoredTool[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < MAX_PAGES; page++) {
          const res = await client.listTools(cursor ? { cursor } : undefined, { timeout: CONNECT_TIMEOUT_MS });
          for (const t of res.tools) {
            found.push({
              name: t.name,
              description: (t.description ?? "").slice(0, 4000),
              inputSchema: t.inputSchema,
              ...(t.annotations ? { annotations: t.annotations } : {}),
            });
          }
          cursor = res.nextCursor;
          if (!cursor || found.length >= MAX_TOOLS) break;
        }
        const kept = found.slice(0, MAX_TOOLS);
        // A value the connection carries is stored as its reference (docs/secrets.md "MCP servers").
        return used.length === 0 ? kept : (JSON.parse(redactValues(JSON.stringify(kept), used)) as StoredTool[]);
      },
      { retryStale: true },
    );
    if (JSON.stringify(tools).length > MAX_TOOLS_JSON) {
      return { ok: false, error: `The server lists tools whose schemas take more than ${MAX_TOOLS_JSON.toLocaleString("en")} chars; split it into smaller servers.` };
    }
    return { ok: true, tools };
  } catch (err) {
    return { ok: false, error: describeMcpFailure(server, err) };
  }
}
