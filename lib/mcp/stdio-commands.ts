import "server-only";
import { AppError } from "../errors";
import { logger } from "../log";
import { type StdioCatalogue, StdioCatalogueSetting } from "./stdio-catalogue";

/**
 * The operator's stdio MCP commands, as this process sees them (docs/security.md "Stdio MCP
 * servers", "Operator settings"). lib/env.ts validates `MCP_STDIO_COMMANDS` when the server
 * starts, so a bad value stops the start with a message naming the setting; here the value
 * is read at each use, parsed once per distinct text, so tests can turn it on and off.
 */

/** What an owner is told when stdio MCP servers are off. */
export const STDIO_OFF_MESSAGE = "stdio MCP servers are off on this instance; the operator enables named commands with MCP_STDIO_COMMANDS";

let memo: { raw: string; catalogue: StdioCatalogue } | undefined;

/**
 * The catalogue, or null when `MCP_STDIO_COMMANDS` is unset or empty (stdio MCP is off).
 * @throws AppError internal ("mcp_stdio_misconfigured") when the value does not parse
 *   (only possible when it changed after start); the details go to the log.
 */
export function stdioCatalogue(): StdioCatalogue | null {
  const raw = process.env.MCP_STDIO_COMMANDS;
  if (raw === undefined || raw.trim() === "") return null;
  if (memo?.raw === raw) return memo.catalogue;
  const parsed = StdioCatalogueSetting.safeParse(raw);
  if (!parsed.success) {
    logger.error({ module: "mcp", issues: parsed.error.issues.map((i) => i.message) }, "MCP_STDIO_COMMANDS is invalid");
    throw new AppError("internal", "mcp_stdio_misconfigured", "The operator's MCP_STDIO_COMMANDS setting is invalid; ask the operator to fix it (the server log says where).");
  }
  memo = { raw, catalogue: parsed.data };
  return parsed.data;
}

/**
 * The catalogue, for any action that would start a stdio server.
 * @throws AppError forbidden ("mcp_stdio_off") with {@link STDIO_OFF_MESSAGE} when it is off.
 */
export function requireStdioCatalogue(): StdioCatalogue {
  const catalogue = stdioCatalogue();
  if (!catalogue || Object.keys(catalogue).length === 0) throw new AppError("forbidden", "mcp_stdio_off", `${STDIO_OFF_MESSAGE}.`);
  return catalogue;
}

/** A command as an owner may pick it: never its argv (the operator's paths stay on the server). */
export interface StdioCommandChoice {
  name: string;
  description: string;
  /** Placeholder -> the values the operator allows, in the operator's order (the first is the default). */
  values: Record<string, string[]>;
  /** Environment variables the owner may set as secrets. */
  env: string[];
  /** Longest the program may take to answer one request, ms. */
  timeoutMs: number;
}

/** The commands an owner may pick, by name; `[]` when stdio MCP is off. */
export function stdioCommandChoices(): StdioCommandChoice[] {
  const catalogue = stdioCatalogue() ?? {};
  return Object.entries(catalogue)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, e]) => ({ name, description: e.description, values: e.values, env: e.env, timeoutMs: e.timeoutMs }));
}
