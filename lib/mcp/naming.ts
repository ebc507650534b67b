import { z } from "zod";

/**
 * Names of MCP servers and of the tools they bring. A tool `Search Notes` of the
 * server `notes` becomes `mcp__notes__search_notes`, a name the flow schema accepts
 * (`/^[a-z][a-z0-9_]*$/`, at most 64 chars: lib/flow/schema.ts) and policy globs such as
 * `mcp__notes__*` or `mcp__*__echo` match (lib/policy/tool-pattern.ts).
 */

/** Longest tool name a flow may bind, chars (lib/flow/schema.ts `toolName`). */
export const MAX_TOOL_NAME = 64;

/** Longest server name, chars: leaves at least 38 chars for the tool part. */
export const MAX_SERVER_NAME = 20;

/**
 * A server name: a snake_case slug (lower-case letters and digits, single `_` between words),
 * unique in its workspace. No `__`, so `mcp__<server>__<tool>` always splits one way.
 */
export const ServerName = z
  .string()
  .trim()
  .min(1, "give the server a short name, e.g. notes")
  .max(MAX_SERVER_NAME, `at most ${MAX_SERVER_NAME} characters`)
  .regex(/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/, "lower-case letters, digits and single underscores, starting with a letter (e.g. notes or git_hub)");

/** The prefix of every MCP tool name. */
export const MCP_PREFIX = "mcp__";

/** A tool name of a server, or why the tool cannot be named (and is left out). */
export type NamedTool = { ok: true; name: string } | { ok: false; problem: string };

/**
 * The flow tool name of the MCP tool `tool` of server `server`: `mcp__<server>__<tool part>`,
 * the tool part lower-cased with every char outside `[a-z0-9_]` turned into `_`.
 * @returns `{ ok: false, problem }` when the name would be empty or longer than
 *   {@link MAX_TOOL_NAME} chars; the problem says what the server's author can do.
 */
export function mcpToolName(server: string, tool: string): NamedTool {
  const part = tool.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  if (part.replace(/_/g, "") === "") return { ok: false, problem: `"${tool}" has no letter or digit to name it by; it is left out.` };
  const name = `${MCP_PREFIX}${server}__${part}`;
  if (name.length > MAX_TOOL_NAME) {
    return {
      ok: false,
      problem: `"${tool}" would be named ${name.length} chars long (at most ${MAX_TOOL_NAME}); it is left out. Give the server a shorter name, or rename the tool on the server.`,
    };
  }
  return { ok: true, name };
}

/**
 * Names every tool of a server in listed order: the first of two tools that get the same
 * name keeps it; the other is left out with a problem (e.g. `Echo` and `echo`).
 * @returns one entry per listed tool, in order.
 */
export function nameTools(server: string, tools: readonly { name: string }[]): NamedTool[] {
  const taken = new Map<string, string>();
  return tools.map((t) => {
    const named = mcpToolName(server, t.name);
    if (!named.ok) return named;
    const first = taken.get(named.name);
    if (first !== undefined) return { ok: false, problem: `"${t.name}" and "${first}" would both be ${named.name}; "${t.name}" is left out. Rename one of them on the server.` };
    taken.set(named.name, t.name);
    return named;
  });
}
