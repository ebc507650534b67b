import "server-only";
import { AppError } from "../errors";
import { PLACEHOLDER, type StdioCatalogue, type StdioCommandEntry } from "./stdio-catalogue";
import { requireStdioCatalogue } from "./stdio-commands";

/**
 * From an owner's choice to the exact argv run (docs/security.md "Stdio MCP servers"): the
 * owner names a command of the operator's catalogue and may pick, per placeholder, one of
 * the values the operator listed, compared as exact strings. Nothing else the owner sends
 * reaches the argv, and only the environment names the operator declared reach the process.
 */

/** The process to start for a stored stdio server, and its limits. */
export interface StdioLaunch {
  /** The catalogue name. */
  command: string;
  /** argv[0] is an absolute path; placeholders replaced by the chosen values. */
  argv: string[];
  /** Names of the secrets the process may receive (others are dropped). */
  envNames: string[];
  limits: { timeoutMs: number; maxMessageBytes: number; maxOutputBytes: number };
}

/** The entry named `command`, own keys only (never `constructor` or other inherited names). */
function entryOf(catalogue: StdioCatalogue, command: string): StdioCommandEntry | undefined {
  return Object.hasOwn(catalogue, command) ? catalogue[command] : undefined;
}

/**
 * Checks an owner's choice of command and values, and returns the values to store: each
 * placeholder's given value, or the operator's first value when none is given.
 * @throws AppError unprocessable "mcp_command_unknown" (`command: ...`) for a name not in
 *   the catalogue, "mcp_value_refused" (`values.<name>: ...`) for an undeclared placeholder
 *   or a value not listed for it.
 */
export function chooseStdioValues(catalogue: StdioCatalogue, command: string, given: Readonly<Record<string, string>> = {}): Record<string, string> {
  const entry = entryOf(catalogue, command);
  if (!entry) {
    const names = Object.keys(catalogue).sort().join(", ");
    throw new AppError("unprocessable", "mcp_command_unknown", `command: this instance has no stdio command named ${JSON.stringify(command)}; choose one of: ${names}.`);
  }
  for (const [key, value] of Object.entries(given)) {
    const allowed = Object.hasOwn(entry.values, key) ? entry.values[key] : undefined;
    if (!allowed) throw new AppError("unprocessable", "mcp_value_refused", `values.${key}: the command ${command} takes no value named ${key}.`);
    if (!allowed.includes(value)) throw new AppError("unprocessable", "mcp_value_refused", `values.${key}: choose one of the values the operator listed for ${key}.`);
  }
  return Object.fromEntries(Object.entries(entry.values).map(([key, list]) => [key, given[key] ?? list[0] ?? ""]));
}

/**
 * Checks that an owner sets only the environment variables the command declares.
 * @throws AppError unprocessable "mcp_secret_refused" (`secrets.<NAME>: ...`).
 */
export function checkStdioSecretNames(catalogue: StdioCatalogue, command: string, names: readonly string[]): void {
  const declared = entryOf(catalogue, command)?.env ?? [];
  for (const name of names) {
    if (!declared.includes(name)) {
      const which = declared.length > 0 ? `only ${declared.join(", ")}` : "no variables";
      throw new AppError("unprocessable", "mcp_secret_refused", `secrets.${name}: the command ${command} accepts ${which}; the operator declares them in MCP_STDIO_COMMANDS.`);
    }
  }
}

/**
 * What to start for a stored stdio server (`McpServer.command` = catalogue name, `args` =
 * JSON object of chosen values), checked again against the current catalogue.
 * @throws AppError forbidden "mcp_stdio_off" when stdio MCP is off; unprocessable
 *   "mcp_command_unknown" (rows saved before commands were named, or a command the operator
 *   removed) or "mcp_value_refused" (a value the operator no longer lists).
 */
export function resolveStdioLaunch(command: string | null, storedArgs: string): StdioLaunch {
  const catalogue = requireStdioCatalogue();
  const entry = command ? entryOf(catalogue, command) : undefined;
  if (!command || !entry) {
    throw new AppError(
      "unprocessable",
      "mcp_command_unknown",
      "This server's command is not one the operator enabled on this instance (MCP_STDIO_COMMANDS): remove the server and add it again, choosing one of the enabled commands.",
    );
  }
  let stored: unknown;
  try {
    stored = JSON.parse(storedArgs);
  } catch {
    stored = null;
  }
  if (typeof stored !== "object" || stored === null || Array.isArray(stored) || !Object.values(stored).every((v) => typeof v === "string")) {
    throw new AppError("unprocessable", "mcp_command_unknown", "This server was saved with free arguments, which are no longer run: remove it and add it again, choosing one of the enabled commands.");
  }
  const values: Record<string, string> = {};
  for (const [key, list] of Object.entries(entry.values)) {
    const chosen = Object.hasOwn(stored, key) ? (stored as Record<string, string>)[key] : list[0];
    if (chosen === undefined || !list.includes(chosen)) {
      throw new AppError("unprocessable", "mcp_value_refused", `The value chosen for ${key} is no longer one the operator allows: choose another value, then Refresh.`);
    }
    values[key] = chosen;
  }
  const argv = entry.argv.map((arg, i) => (i === 0 ? arg : arg.replace(PLACEHOLDER, (_m, key: string) => values[key] ?? "")));
  return { command, argv, envNames: entry.env, limits: { timeoutMs: entry.timeoutMs, maxMessageBytes: entry.maxMessageBytes, maxOutputBytes: entry.maxOutputBytes } };
}
