import { deleteFile, listFiles, readFile, writeFile } from "./files";
import { rehydrate } from "./rehydrate";
import type { ToolDefinition } from "./types";

/** The built-in tools by name (SPEC.md 7): the four sandboxed file tools and `rehydrate`. */
export const builtinTools: Record<string, ToolDefinition> = {
  [listFiles.name]: listFiles,
  [readFile.name]: readFile,
  [writeFile.name]: writeFile,
  [deleteFile.name]: deleteFile,
  [rehydrate.name]: rehydrate,
};

/** The tool declared under `name`, or undefined when there is none. */
export function getTool(name: string): ToolDefinition | undefined {
  return Object.hasOwn(builtinTools, name) ? builtinTools[name] : undefined;
}

/**
 * True when the tool changes the world (SPEC.md 4: such a tool no policy rule covers needs
 * approval). Unknown tools count as side-effecting, so they fail closed.
 */
export function isSideEffectTool(name: string): boolean {
  return getTool(name)?.sideEffect ?? true;
}

/** Name, description and side-effect flag of every built-in tool, sorted by name. */
export function toolCatalog(): { name: string; description: string; sideEffect: boolean }[] {
  return Object.values(builtinTools)
    .map(({ name, description, sideEffect }) => ({ name, description, sideEffect }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
