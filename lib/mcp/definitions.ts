import "server-only";
import { z } from "zod";
import type { ToolDefinition } from "../tools/types";
import { callOutput, type McpCallResult } from "./call-result";
import { type McpConnectionConfig, withMcpClient } from "./client-pool";
import { parseStoredTools, type StoredTool } from "./config";
import { redactValues } from "../workspace-secrets/references";
import { inputSchemaToZod } from "./input-schema";
import { nameTools } from "./naming";

/** Wall-clock limit of one MCP tool call, ms (30 s default). */
export const MCP_TOOL_TIMEOUT_MS = 30_000;

/** Longest tool description passed on from a server, chars. */
const MAX_DESCRIPTION = 2000;

/** A `McpServer` row as the tool definitions need it. */
export interface McpServerRow extends McpConnectionConfig {
  name: string;
  /** JSON array of the tools last listed (see StoredTool). */
  tools: string;
}

/** A listed tool and what it becomes: its flow tool name, or why it is left out. */
export interface ListedTool {
  tool: StoredTool;
  /** `mcp__<server>__<tool>`, or null when the tool cannot be named. */
  name: string | null;
  /** Why the tool is left out (name) or only loosely checked (schema); null when neither. */
  problem: string | null;
  sideEffect: boolean;
}

/** Fail closed: only a tool that says it is read-only counts as side-effect free. */
export function hasSideEffect(tool: StoredTool): boolean {
  return tool.annotations?.readOnlyHint !== true;
}

/**
 * Every tool a server listed, with its flow tool name (see nameTools) and any problem: left
 * out (cannot be named) or input checked only as an object (see inputSchemaToZod).
 */
export function listedTools(server: { name: string; tools: string }): ListedTool[] {
  const tools = parseStoredTools(server.tools);
  const names = nameTools(server.name, tools);
  return tools.map((tool, i) => {
    const named = names[i] ?? { ok: false as const, problem: "unnamed" };
    const problem = named.ok ? inputSchemaToZod(tool.inputSchema).problem : named.problem;
    return { tool, name: named.ok ? named.name : null, problem: problem && named.ok ? `Input is checked only as a JSON object: ${problem}.` : problem, sideEffect: hasSideEffect(tool) };
  });
}

/**
 * The tool definitions of one MCP server, as the gateway runs built-ins
 * (docs/architecture.md#tools-and-mcp): named `mcp__<server>__<tool>`, described by the server, input checked by a zod schema
 * converted from the tool's JSON Schema, output the call's result (see callOutput), version
 * "mcp", 30 s timeout, permission "user", and a side effect unless the server marks the
 * tool `readOnlyHint: true`. Calls go through the pooled client and abort on the gateway's
 * signal. Tools that cannot be named are left out (listedTools says why). `{{secret:NAME}}`
 * in the server's headers or env is resolved from `server.secretSource` when the connection
 * opens, and the values come back as references in every output (docs/secrets.md "MCP servers").
 */
export function serverToolDefinitions(server: McpServerRow): ToolDefinition[] {
  return listedTools(server).flatMap(({ tool, name, sideEffect }) => {
    if (!name) return [];
    const { schema, problem } = inputSchemaToZod(tool.inputSchema);
    const description = [
      (tool.description || tool.annotations?.title || `Tool ${tool.name} of the MCP server ${server.name}.`).slice(0, MAX_DESCRIPTION),
      problem ? `(Its input schema could not be converted, so only "is a JSON object" is checked before the call: ${problem}.)` : "",
    ]
      .filter(Boolean)
      .join(" ");
    const def: ToolDefinition<Record<string, unknown>, unknown> = {
      name,
      version: "mcp",
      description,
      input: schema,
      output: z.unknown(),
      timeoutMs: MCP_TOOL_TIMEOUT_MS,
      permission: "user",
      sideEffect,
      // The server says running it twice is running it once (MCP `idempotentHint`).
      idempotent: () => tool.annotations?.idempotentHint === true,
      run: (input, ctx) =>
        withMcpClient(
          server,
          async (client, used) => {
            const output = callOutput((await client.callTool({ name: tool.name, arguments: input }, undefined, { signal: ctx.signal, timeout: MCP_TOOL_TIMEOUT_MS })) as McpCallResult, name);
            // A value the connection carries (docs/secrets.md "MCP servers") comes back as its reference.
            return used.length === 0 ? output : (JSON.parse(redactValues(JSON.stringify(output), used)) as unknown);
          },
          { signal: ctx.signal, timeoutMs: MCP_TOOL_TIMEOUT_MS },
        ),
    };
    return [def as ToolDefinition];
  });
}
