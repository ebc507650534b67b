/**
 * Which tool calls write a file, and what they write: the built-in `write_file`
 * (lib/tools/files.ts) creates or replaces `path` with `content`. Approval cards show such a
 * call as the file's rendered content and a line diff against the file as it is now.
 * Client-safe: no server code.
 */

/** A proposed file write: the workspace-relative path and the full new content (UTF-8 text). */
export interface FileWrite {
  path: string;
  content: string;
}

/** Tools that write one whole file, by name, with how to read their arguments. */
const FILE_WRITERS: Readonly<Record<string, (args: Record<string, unknown>) => FileWrite | null>> = {
  write_file: (args) => (typeof args.path === "string" && typeof args.content === "string" ? { path: args.path, content: args.content } : null),
};

/** True when `toolName` writes a file (its approval shows a content preview and a line diff). */
export function writesFile(toolName: string): boolean {
  return Object.hasOwn(FILE_WRITERS, toolName);
}

/**
 * The file a tool call would write, or null when the tool writes no file or its arguments
 * are not the expected shape (then the card shows the arguments as JSON).
 * @param args the call's arguments as an object (parsed canonical JSON).
 */
export function fileWriteOf(toolName: string, args: unknown): FileWrite | null {
  if (!writesFile(toolName) || typeof args !== "object" || args === null || Array.isArray(args)) return null;
  return FILE_WRITERS[toolName]?.(args as Record<string, unknown>) ?? null;
}
