import { z } from "zod";
import { deleteFile, listFiles, readFile, writeFile } from "./files";
import { httpRequest } from "./http-request";
import { recall, remember } from "./memory-tools";
import { rehydrate } from "./rehydrate";
import { runJavascript } from "./run-javascript";
import { searchFiles } from "./search-files";
import type { ToolCatalogEntry, ToolDefinition } from "./types";

/**
 * The built-in tools by name (docs/architecture.md#tools-and-mcp): the four sandboxed file tools, `search_files` (docs/library.md), `rehydrate`,
 * `http_request` (the flow's network allowlist), `run_javascript` (QuickJS sandbox) and
 * `remember` / `recall` (long-term memory).
 */
export const builtinTools: Record<string, ToolDefinition> = {
  [listFiles.name]: listFiles,
  [readFile.name]: readFile,
  [writeFile.name]: writeFile,
  [deleteFile.name]: deleteFile,
  [searchFiles.name]: searchFiles,
  [rehydrate.name]: rehydrate,
  [httpRequest.name]: httpRequest,
  [runJavascript.name]: runJavascript,
  [remember.name]: remember,
  [recall.name]: recall,
};

/**
 * A set of declared tools (docs/architecture.md#tools-and-mcp): the built-ins plus, for a workspace, the tools of its
 * MCP servers. The engine, the editor and the validator read tools only through one.
 */
export interface ToolRegistry {
  /** The tool declared under `name`, or undefined. */
  get(name: string): ToolDefinition | undefined;
  /** True when the tool changes the world; unknown tools count as side-effecting (fail closed). */
  isSideEffect(name: string): boolean;
  /** Every tool's declaration for the palette, sorted by name. */
  catalog(): ToolCatalogEntry[];
}

/** JSON Schema of a zod input schema, for display; `{}` when zod cannot express it. */
function jsonSchemaOf(schema: z.ZodType): unknown {
  try {
    return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  } catch {
    return {};
  }
}

/**
 * A registry of the built-ins and `extra` tools (later names win, so a workspace cannot
 * shadow a built-in: built-ins are added last).
 * @param sources where each extra tool comes from ("mcp:<server>"), by tool name.
 */
export function createToolRegistry(extra: readonly ToolDefinition[] = [], sources: Readonly<Record<string, string>> = {}): ToolRegistry {
  const byName = new Map<string, ToolDefinition>();
  for (const def of extra) byName.set(def.name, def);
  for (const def of Object.values(builtinTools)) byName.set(def.name, def);
  let catalog: ToolCatalogEntry[] | null = null;
  return {
    get: (name) => byName.get(name),
    isSideEffect: (name) => byName.get(name)?.sideEffect ?? true,
    catalog() {
      catalog ??= [...byName.values()]
        .map((d) => ({
          name: d.name,
          version: d.version,
          description: d.description,
          sideEffect: d.sideEffect,
          permission: d.permission,
          timeoutMs: d.timeoutMs,
          inputSchema: jsonSchemaOf(d.input),
          source: Object.hasOwn(builtinTools, d.name) ? "builtin" : (sources[d.name] ?? "extra"),
        }))
        .sort((a, b) => a.name.localeCompare(b.name));
      return catalog;
    },
  };
}

/** The registry of the built-in tools alone. */
export const builtinRegistry: ToolRegistry = createToolRegistry();

/** The built-in tool declared under `name`, or undefined when there is none. */
export function getTool(name: string): ToolDefinition | undefined {
  return builtinRegistry.get(name);
}

/**
 * True when the built-in tool changes the world (such a tool no policy rule
 * covers needs approval). Unknown tools count as side-effecting, so they fail closed.
 */
export function isSideEffectTool(name: string): boolean {
  return builtinRegistry.isSideEffect(name);
}

/** Declarations of every built-in tool, sorted by name. */
export function toolCatalog(): ToolCatalogEntry[] {
  return builtinRegistry.catalog();
}
