import { type Stats, promises as fs } from "node:fs";
import path from "node:path";
import { AppError } from "../errors";

/**
 * The workspace sandbox (docs/architecture.md#tools-and-mcp): every path a tool touches is relative to the thread's
 * workspace and must stay inside it, after symlinks are followed. Checks are lexical first
 * (cheap, no I/O), then on disk (realpath of each existing component).
 *
 * Limits: a check and the later file operation are not atomic; tools narrow the window by
 * opening files with O_NOFOLLOW and re-checking the handle (see files.ts).
 */

/** Longest relative path accepted, in chars (docs/architecture.md#tools-and-mcp). */
export const MAX_PATH_CHARS = 1024;

/**
 * The folder, at any depth of a workspace, that the app keeps for itself: the text extracted
 * from uploaded PDF and DOCX files and the uploads being written (docs/documents.md
 * "Extraction"). Every path naming it is refused, so no tool lists, reads or writes it.
 */
export const RESERVED_SEGMENT = ".phylactery";

/** Options of {@link resolveInWorkspace}. */
export interface ResolveOptions {
  /** Throw `not_found` when the path does not exist (default false). */
  mustExist?: boolean;
}

function violation(relPath: string, why: string): AppError {
  const shown = JSON.stringify(relPath.length > 120 ? `${relPath.slice(0, 120)}…` : relPath);
  return new AppError("forbidden", "sandbox_violation", `Path ${shown} is refused: ${why}.`);
}

/** Percent-decodings of `s` (up to 3 levels, to catch double encoding); stops at malformed input. */
function decodings(s: string): string[] {
  const out: string[] = [];
  let cur = s;
  for (let i = 0; i < 3 && cur.includes("%"); i++) {
    try {
      const next = decodeURIComponent(cur);
      if (next === cur) break;
      out.push(next);
      cur = next;
    } catch {
      break;
    }
  }
  return out;
}

/** Throws when one spelling of the path is absolute, has control chars or a `..` segment. */
function checkSpelling(relPath: string, spelling: string, how: string): void {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\u007f]/.test(spelling)) {
    throw violation(relPath, spelling.includes("\u0000") ? `it contains a NUL byte${how}` : `it contains a control character${how}`);
  }
  if (/^[/\\]/.test(spelling)) throw violation(relPath, `it is an absolute path${how}; use a path relative to the workspace`);
  if (/^[A-Za-z]:/.test(spelling)) throw violation(relPath, `it is a Windows drive path${how}; use a path relative to the workspace`);
  for (const segment of spelling.split(/[/\\]+/)) {
    // Windows drops trailing dots and spaces, so "... " and ".. " mean "..".
    if (/^\.\.[.\s]*$/.test(segment)) throw violation(relPath, `it contains a ".." segment${how}; paths may not leave the workspace`);
    // Trailing dots and spaces dropped as Windows does, case folded as on case-insensitive disks.
    if (segment.replace(/[.\s]+$/, "").toLowerCase() === RESERVED_SEGMENT) throw violation(relPath, `"${RESERVED_SEGMENT}" is reserved for the app's own files${how}`);
  }
}

/**
 * Checks a workspace-relative path without touching the disk and returns its segments
 * (`.` and empty segments dropped; `[]` means the workspace root). Both `/` and `\` count as
 * separators. Percent-encoded and Unicode-compatible spellings (`%2e%2e`, `．．`) are checked
 * too, so they are refused rather than taken literally (docs/architecture.md#tools-and-mcp).
 * @throws AppError forbidden / "sandbox_violation" for an empty path, a path longer than
 *   {@link MAX_PATH_CHARS}, NUL or other control characters, an absolute path (`/x`, `C:\x`,
 *   `\\server\share`), any `..` segment or a {@link RESERVED_SEGMENT} segment.
 */
export function splitWorkspacePath(relPath: string): string[] {
  if (typeof relPath !== "string" || relPath.trim() === "") throw violation(String(relPath ?? ""), "it is empty");
  if (relPath.length > MAX_PATH_CHARS) throw violation(relPath, `it is longer than ${MAX_PATH_CHARS} characters`);
  checkSpelling(relPath, relPath, "");
  for (const spelling of [relPath.normalize("NFKC"), ...decodings(relPath)]) {
    if (spelling === relPath) continue;
    checkSpelling(relPath, spelling, " once decoded");
    checkSpelling(relPath, spelling.normalize("NFKC"), " once decoded");
  }
  return relPath.split(/[/\\]+/).filter((s) => s !== "" && s !== ".");
}

/** True when `candidate` is `root` or lies beneath it (both absolute, already real paths). */
export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * Asserts that the absolute `candidate` is `root` or beneath it (both real paths).
 * @throws AppError forbidden / "sandbox_violation" naming `relPath` otherwise.
 */
export function ensureInside(root: string, candidate: string, relPath: string): void {
  if (!isInside(root, candidate)) throw violation(relPath, "it resolves outside the workspace");
}

/** Real path of the workspace root. @throws AppError not_found / "workspace_missing". */
export async function realWorkspaceRoot(root: string): Promise<string> {
  try {
    const real = await fs.realpath(root);
    if (!(await fs.stat(real)).isDirectory()) throw new Error("not a directory");
    return real;
  } catch {
    throw new AppError("not_found", "workspace_missing", "The workspace directory does not exist.");
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Resolves a workspace-relative path to an absolute real path inside `root` (docs/architecture.md#tools-and-mcp).
 * Walks the path one component at a time: every existing component that is a symlink is
 * followed with realpath and must land inside realpath(root); a dangling symlink is refused
 * (writing through it would create its target). Components past the deepest existing one
 * are appended as given. When the path exists it must be a regular file or a directory.
 *
 * @param root absolute path of the workspace directory (may itself be a symlink).
 * @param relPath path relative to the workspace, `/` or `\` separated; `.` is the root.
 * @returns the absolute real path (the target may not exist unless `mustExist`).
 * @throws AppError forbidden / "sandbox_violation" for the lexical refusals of
 *   {@link splitWorkspacePath}, a symlink that leaves the workspace or dangles, and device,
 *   FIFO or socket files; AppError not_found / "not_found" when `mustExist` and the path is
 *   missing; AppError not_found / "workspace_missing" when `root` does not exist.
 */
export async function resolveInWorkspace(root: string, relPath: string, opts: ResolveOptions = {}): Promise<string> {
  const segments = splitWorkspacePath(relPath);
  const realRoot = await realWorkspaceRoot(root);
  let current = realRoot;
  let exists = true;
  for (const [i, segment] of segments.entries()) {
    const candidate = path.join(current, segment);
    if (!exists) {
      current = candidate;
      continue;
    }
    let st: Stats;
    try {
      st = await fs.lstat(candidate);
    } catch (err) {
      if (!isMissing(err)) throw err;
      exists = false;
      current = candidate;
      continue;
    }
    if (st.isSymbolicLink()) {
      let target: string;
      try {
        target = await fs.realpath(candidate);
      } catch {
        throw violation(relPath, `"${segments.slice(0, i + 1).join("/")}" is a broken or looping symlink`);
      }
      ensureInside(realRoot, target, relPath);
      current = target;
    } else {
      current = candidate;
    }
  }
  ensureInside(realRoot, current, relPath);
  if (exists) {
    const st = await fs.stat(current);
    if (!st.isFile() && !st.isDirectory()) throw violation(relPath, "it is a device, FIFO or socket; only regular files and directories are allowed");
  } else if (opts.mustExist) {
    throw new AppError("not_found", "not_found", `No such file or directory: ${JSON.stringify(relPath)}.`);
  }
  return current;
}

/** `abs` relative to the real workspace root, `/` separated (`.` for the root itself). */
export function toWorkspacePath(realRoot: string, abs: string): string {
  const rel = path.relative(realRoot, abs);
  return rel === "" ? "." : rel.split(path.sep).join("/");
}
