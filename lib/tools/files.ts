import { createHash } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { readableText } from "../documents/readable";
import { AppError, isAppError } from "../errors";
import { realWorkspaceRoot, resolveInWorkspace, splitWorkspacePath, toWorkspacePath } from "./sandbox";
import type { ToolContext, ToolDefinition } from "./types";

/**
 * The four built-in file tools (docs/architecture.md#tools-and-mcp). Each works only inside the thread's workspace
 * through {@link resolveInWorkspace}; failures are AppErrors whose `reason` the gateway
 * reports as the error code.
 */

/** Largest file read_file returns and write_file accepts, bytes (1 MB). */
export const MAX_FILE_BYTES = 1_048_576;
/** Default wall-clock limit of the file tools, ms (docs/architecture.md#tools-and-mcp). */
const TIMEOUT_MS = 30_000;
/** O_NOFOLLOW where the platform has it: refuse a symlink swapped in after the check. */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

const workspacePath = z.string().min(1).max(1024);

/** Turns a Node fs error into an AppError that names the workspace path, never the host path. */
function fsError(err: unknown, relPath: string): unknown {
  if (isAppError(err)) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const shown = JSON.stringify(relPath);
  switch (code) {
    case "ENOENT":
    case "ENOTDIR":
      return new AppError("not_found", "not_found", `No such file or directory: ${shown}.`);
    case "EISDIR":
      return new AppError("bad_request", "is_a_directory", `${shown} is a directory.`);
    case "ELOOP":
      return new AppError("forbidden", "sandbox_violation", `Path ${shown} is refused: it is a symlink.`);
    case "EACCES":
    case "EPERM":
      return new AppError("forbidden", "permission_denied", `Permission denied: ${shown}.`);
    case "ENOSPC":
      return new AppError("internal", "no_space", "The workspace disk is full.");
    default:
      return new AppError("internal", "fs_error", `File operation on ${shown} failed (${code ?? "unknown error"}).`);
  }
}

/** SHA-256 hex of bytes. */
const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

function fileTool<I, O>(def: Omit<ToolDefinition<I, O>, "version" | "timeoutMs" | "permission">): ToolDefinition<I, O> {
  return { version: "1.0.0", timeoutMs: TIMEOUT_MS, permission: "user", ...def };
}

const ListEntry = z.object({
  name: z.string(),
  type: z.enum(["file", "dir"]),
  /** Size in bytes; 0 for directories. */
  sizeBytes: z.number().int().nonnegative(),
  /** True for a file of the mounted workspace library that the thread has no copy of (docs/library.md). */
  readOnly: z.literal(true).optional(),
});

/** list_files: the entries of one workspace directory, sorted by name (docs/architecture.md#tools-and-mcp). */
export const listFiles = fileTool({
  name: "list_files",
  description: "List the files and folders in a directory of the workspace. Returns name, type (file or dir) and size in bytes for each entry.",
  sideEffect: false,
  input: z.object({
    path: workspacePath.default(".").describe('Directory to list, relative to the workspace root; "." (the default) is the root.'),
  }),
  output: z.array(ListEntry),
  async run({ path: rel }, ctx) {
    const lower = await listLibraryLayer(ctx, rel);
    let upper: z.infer<typeof ListEntry>[];
    try {
      upper = await listLayer(ctx.workspaceDir, rel, ctx.signal);
    } catch (err) {
      if (!lower || !isAppError(err) || err.reason !== "not_found") throw err;
      upper = [];
    }
    return lower ? mergeLayers(upper, lower) : upper;
  },
});

/** The entries of one directory of a layer (the thread's workspace, or the library), sorted by name. */
async function listLayer(root: string, rel: string, signal: AbortSignal): Promise<z.infer<typeof ListEntry>[]> {
  const dir = await resolveInWorkspace(root, rel, { mustExist: true });
  try {
    if (!(await fs.stat(dir)).isDirectory()) {
      throw new AppError("bad_request", "not_a_directory", `${JSON.stringify(rel)} is a file, not a directory; use read_file.`);
    }
    const entries: z.infer<typeof ListEntry>[] = [];
    for (const name of (await fs.readdir(dir)).sort()) {
      if (signal.aborted) break;
      let real: string;
      try {
        // Symlinks are listed as what they point to, and only when that stays inside.
        real = await resolveInWorkspace(root, `${rel}/${name}`, { mustExist: true });
      } catch {
        continue;
      }
      const st = await fs.stat(real);
      entries.push({ name, type: st.isDirectory() ? "dir" : "file", sizeBytes: st.isDirectory() ? 0 : st.size });
    }
    return entries;
  } catch (err) {
    throw fsError(err, rel);
  }
}

/**
 * read_file: the UTF-8 text of one workspace file of at most 1 MB, or the extracted text of a
 * PDF or DOCX (docs/architecture.md#tools-and-mcp, docs/documents.md "Extraction").
 */
export const readFile = fileTool({
  name: "read_file",
  description: "Read a file from the workspace: a text file (UTF-8, at most 1 MB) as it is, a PDF or Word (DOCX) document as its extracted text. Returns its path and content.",
  sideEffect: false,
  input: z.object({
    path: workspacePath.describe('File to read, relative to the workspace root, e.g. "notes.md" or "docs/plan.md".'),
  }),
  output: z.object({ path: z.string(), content: z.string() }),
  async run({ path: rel }, ctx) {
    // The thread's own file, else the mounted library's (docs/library.md "Mounting").
    const { root } = await resolveReadable(ctx, rel);
    try {
      // One rule for what a path reads as (docs/documents.md "Extraction"): PDF and DOCX give their text.
      const { path: shown, content } = await readableText(root, rel, { signal: ctx.signal });
      return { path: shown, content };
    } catch (err) {
      throw fsError(err, rel);
    }
  },
});

/** write_file: creates or replaces one workspace file, creating parent folders (docs/architecture.md#tools-and-mcp). */
export const writeFile = fileTool({
  name: "write_file",
  description: "Create or overwrite a text file in the workspace (UTF-8, at most 1 MB). Missing parent folders are created. Needs approval.",
  sideEffect: true,
  input: z.object({
    path: workspacePath.describe('File to write, relative to the workspace root, e.g. "summary.md".'),
    content: z
      .string()
      .refine((s) => Buffer.byteLength(s, "utf8") <= MAX_FILE_BYTES, { message: `must be at most ${MAX_FILE_BYTES} bytes (1 MB) of UTF-8` })
      .describe("The full new content of the file, as UTF-8 text (at most 1 MB)."),
  }),
  output: z.object({ path: z.string(), bytesWritten: z.number().int().nonnegative() }),
  // After a crash (docs/durability.md "Side effects"): the write happened when the file holds
  // exactly the content (same SHA-256); otherwise writing it now writes it once.
  async observe({ path: rel, content }, ctx) {
    try {
      const root = await realWorkspaceRoot(ctx.workspaceDir);
      const abs = await resolveInWorkspace(ctx.workspaceDir, rel, { mustExist: true });
      const data = await fs.readFile(abs);
      const want = Buffer.from(content, "utf8");
      if (sha256(data) !== sha256(want)) return { happened: false };
      return { happened: true, output: { path: toWorkspacePath(root, abs), bytesWritten: want.byteLength } };
    } catch (err) {
      return isAppError(err) && err.reason === "not_found" ? { happened: false } : null;
    }
  },
  async run({ path: rel, content }, ctx) {
    const segments = splitWorkspacePath(rel);
    if (segments.length === 0) throw new AppError("bad_request", "is_a_directory", `${JSON.stringify(rel)} is the workspace root, not a file.`);
    const root = await realWorkspaceRoot(ctx.workspaceDir);
    const target = await resolveInWorkspace(ctx.workspaceDir, rel);
    try {
      await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      // Re-check after mkdir: the parent chain now exists and must still be inside.
      const abs = await resolveInWorkspace(ctx.workspaceDir, rel);
      if (ctx.signal.aborted) throw new AppError("internal", "aborted", "write_file was cancelled before writing.");
      const data = Buffer.from(content, "utf8");
      const handle = await fs.open(abs, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | NOFOLLOW, 0o600);
      try {
        await handle.writeFile(data);
      } finally {
        await handle.close();
      }
      return { path: toWorkspacePath(root, abs), bytesWritten: data.byteLength };
    } catch (err) {
      throw fsError(err, rel);
    }
  },
});

/** delete_file: removes one workspace file; directories are refused (docs/architecture.md#tools-and-mcp). */
export const deleteFile = fileTool({
  name: "delete_file",
  description: "Delete one file from the workspace. Directories cannot be deleted. Usually blocked by policy.",
  sideEffect: true,
  input: z.object({
    path: workspacePath.describe('File to delete, relative to the workspace root, e.g. "old-notes.md".'),
  }),
  output: z.object({ path: z.string(), deleted: z.literal(true) }),
  // After a crash: the delete happened when the file is gone; while it is there, deleting it
  // now deletes it once.
  async observe({ path: rel }, ctx) {
    try {
      await resolveInWorkspace(ctx.workspaceDir, rel, { mustExist: true });
      return { happened: false };
    } catch (err) {
      return isAppError(err) && err.reason === "not_found" ? { happened: true, output: { path: rel, deleted: true as const } } : null;
    }
  },
  async run({ path: rel }, ctx) {
    const segments = splitWorkspacePath(rel);
    await refuseLibraryOnly(ctx, rel);
    const abs = await resolveInWorkspace(ctx.workspaceDir, rel, { mustExist: true });
    const root = await realWorkspaceRoot(ctx.workspaceDir);
    try {
      if ((await fs.stat(abs)).isDirectory()) {
        throw new AppError("bad_request", "is_a_directory", `${JSON.stringify(rel)} is a directory; delete_file deletes files only.`);
      }
      // Unlink the entry the caller named: for a symlink (already checked to stay inside)
      // that is the link itself, never the file it points to.
      const parent = await resolveInWorkspace(ctx.workspaceDir, segments.slice(0, -1).join("/") || ".", { mustExist: true });
      const entry = path.join(parent, segments[segments.length - 1] ?? "");
      await fs.unlink(entry);
      return { path: toWorkspacePath(root, entry), deleted: true as const };
    } catch (err) {
      throw fsError(err, rel);
    }
  },
});

// The mounted workspace library (docs/library.md "Mounting"): a read-only lower layer under
// the thread's workspace, resolved here in code (no symlinks). The thread's own files win;
// write_file always writes the thread's copy; a library-only file cannot be deleted.

/** True for the AppErrors that mean "not there" (the path, or the library folder itself). */
function isMissingError(err: unknown): boolean {
  return isAppError(err) && (err.reason === "not_found" || err.reason === "workspace_missing");
}

/** The library's real path for `rel`, or null when no library is mounted or it has no such path. */
async function libraryPath(ctx: ToolContext, rel: string): Promise<{ abs: string; root: string } | null> {
  if (!ctx.libraryDir) return null;
  try {
    const abs = await resolveInWorkspace(ctx.libraryDir, rel, { mustExist: true });
    return { abs, root: await realWorkspaceRoot(ctx.libraryDir) };
  } catch (err) {
    if (isMissingError(err)) return null;
    throw err;
  }
}

/**
 * Where read_file reads `rel`: the thread's own file, else the mounted library's.
 * @throws the thread's resolution error (not_found, sandbox_violation) when neither has it.
 */
async function resolveReadable(ctx: ToolContext, rel: string): Promise<{ abs: string; root: string }> {
  try {
    const abs = await resolveInWorkspace(ctx.workspaceDir, rel, { mustExist: true });
    return { abs, root: await realWorkspaceRoot(ctx.workspaceDir) };
  } catch (err) {
    if (!isMissingError(err)) throw err;
    const lower = await libraryPath(ctx, rel);
    if (lower) return lower;
    throw err;
  }
}

/** The library's entries of directory `rel`, marked read-only; null when there is none to show. */
async function listLibraryLayer(ctx: ToolContext, rel: string): Promise<z.infer<typeof ListEntry>[] | null> {
  const lower = await libraryPath(ctx, rel);
  if (!lower || !(await fs.stat(lower.abs)).isDirectory()) return null;
  const entries = await listLayer(lower.root, rel, ctx.signal);
  return entries.map((e) => (e.type === "file" ? { ...e, readOnly: true as const } : e));
}

/** The union of two listings by name, sorted; the thread's entry wins over the library's. */
function mergeLayers(upper: z.infer<typeof ListEntry>[], lower: z.infer<typeof ListEntry>[]): z.infer<typeof ListEntry>[] {
  const byName = new Map(lower.map((e) => [e.name, e]));
  for (const e of upper) byName.set(e.name, e);
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * Refuses to delete a file that only the mounted library has.
 * @throws AppError forbidden / "read_only_library_file".
 */
async function refuseLibraryOnly(ctx: ToolContext, rel: string): Promise<void> {
  if (!ctx.libraryDir) return;
  try {
    await resolveInWorkspace(ctx.workspaceDir, rel, { mustExist: true });
  } catch (err) {
    if (isMissingError(err) && (await libraryPath(ctx, rel))) {
      throw new AppError(
        "forbidden",
        "read_only_library_file",
        `${JSON.stringify(rel)} is a read-only library file: it cannot be deleted from a thread. An owner can remove it in Settings > Library.`,
      );
    }
    throw err;
  }
}
