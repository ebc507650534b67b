import { createHash } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import path from "node:path";
import { fileTypeFromBuffer } from "file-type";
import { AppError } from "../errors";
import { splitWorkspacePath } from "./sandbox";

/**
 * The workspace library (docs/library.md): files a workspace's owners upload once, that a flow
 * can mount read-only into every thread. On disk beside the thread workspaces:
 * `<WORKSPACES_DIR>/.library/<workspaceId>/files/<name>`; each change is a row of the audit
 * trail, written through a {@link LibraryAuditSink}. `.library` is a name no thread id can
 * have (ids never contain "."), so it is never served as a thread's workspace.
 */

/** The folder beside the thread workspaces that holds every workspace's library. */
export const LIBRARY_FOLDER = ".library";
/** Largest file the library accepts, bytes (10 MB; docs/library.md "Limits"). */
export const MAX_LIBRARY_FILE_BYTES = 10 * 1_048_576;
/** Most file bytes one upload request carries, bytes (11 MB: a full-size file and then some). */
export const MAX_LIBRARY_REQUEST_BYTES = MAX_LIBRARY_FILE_BYTES + 1_048_576;
/** Most bytes one workspace's library holds, bytes (50 MB). */
export const MAX_LIBRARY_BYTES = 50 * 1_048_576;
/** Most files one workspace's library holds. */
export const MAX_LIBRARY_FILES = 100;
/** Longest library file name, chars. */
export const MAX_LIBRARY_NAME_CHARS = 255;

const WORKSPACE_ID = /^[A-Za-z0-9_-]{1,64}$/;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The kinds of file the library accepts, as detected from the content. */
export type LibraryFileKind = "text" | "pdf" | "docx";

/** One library file as the API lists it. */
export interface LibraryFile {
  name: string;
  /** Size in bytes. */
  sizeBytes: number;
  kind: LibraryFileKind;
  /** Last change, ISO 8601. */
  updatedAt: string;
}

/** One file of an upload: its name as sent and its bytes. */
export interface UploadedFile {
  name: string;
  data: Uint8Array;
}

/**
 * The library root of a workspace: `<baseDir>/.library/<workspaceId>`.
 * @throws AppError bad_request / "invalid_workspace_id" unless the id is 1-64 letters, digits, `_` or `-`.
 */
export function libraryRootFor(baseDir: string, workspaceId: string): string {
  if (typeof workspaceId !== "string" || !WORKSPACE_ID.test(workspaceId)) {
    throw new AppError("bad_request", "invalid_workspace_id", "Workspace id must be 1-64 letters, digits, '_' or '-'.");
  }
  return path.join(path.resolve(baseDir), LIBRARY_FOLDER, workspaceId);
}

/** The folder of a workspace's library files, which file tools see as the lower layer (docs/library.md). */
export function libraryFilesDirFor(baseDir: string, workspaceId: string): string {
  return path.join(libraryRootFor(baseDir, workspaceId), "files");
}

/**
 * Creates the workspace's library folder (owner-only, mode 0700) if needed and returns it.
 * @throws AppError bad_request / "invalid_workspace_id" (see {@link libraryRootFor}).
 */
export async function ensureLibrary(baseDir: string, workspaceId: string): Promise<string> {
  const dir = libraryFilesDirFor(baseDir, workspaceId);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * Checks a library file name: the sandbox's path rules (lib/tools/sandbox.ts) and one segment
 * (the library is flat), not starting with ".", at most {@link MAX_LIBRARY_NAME_CHARS} chars.
 * @returns the name as stored.
 * @throws AppError forbidden / "sandbox_violation" for what the sandbox refuses;
 *   AppError unprocessable / "invalid_file_name" for folders, hidden or too long names.
 */
export function libraryName(name: string): string {
  const segments = splitWorkspacePath(name);
  const shown = JSON.stringify(String(name).slice(0, 120));
  if (segments.length !== 1) throw new AppError("unprocessable", "invalid_file_name", `File name ${shown} must be one name without folders.`);
  const [only = ""] = segments;
  if (only.startsWith(".")) throw new AppError("unprocessable", "invalid_file_name", `File name ${shown} may not start with ".".`);
  if (only.length > MAX_LIBRARY_NAME_CHARS) throw new AppError("unprocessable", "invalid_file_name", `File name ${shown} is longer than ${MAX_LIBRARY_NAME_CHARS} characters.`);
  return only;
}

const DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/**
 * The kind of a file from its content, never its name (`file-type`): PDF, DOCX, or text
 * (valid UTF-8 without NUL bytes). An empty file is text.
 * @throws AppError unsupported_media_type / "unsupported_file_type" for anything else.
 */
export async function detectKind(name: string, data: Uint8Array): Promise<LibraryFileKind> {
  const type = await fileTypeFromBuffer(data);
  if (type?.mime === "application/pdf") return "pdf";
  if (type?.mime === DOCX_MIME) return "docx";
  if (!type) {
    try {
      const text = new TextDecoder("utf-8", { fatal: true }).decode(data);
      if (!text.includes("\u0000")) return "text";
    } catch {
      // Not UTF-8: refused below.
    }
  }
  throw new AppError(
    "unsupported_media_type",
    "unsupported_file_type",
    `${JSON.stringify(name.slice(0, 120))} is ${type ? `a ${type.mime} file` : "binary"}; the library takes text (UTF-8), PDF and DOCX files.`,
  );
}

async function kindOfStored(abs: string): Promise<LibraryFileKind> {
  const handle = await fs.open(abs, constants.O_RDONLY | NOFOLLOW);
  try {
    const head = Buffer.alloc(4100);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const type = await fileTypeFromBuffer(head.subarray(0, bytesRead));
    return type?.mime === "application/pdf" ? "pdf" : type?.mime === DOCX_MIME ? "docx" : "text";
  } finally {
    await handle.close();
  }
}

/**
 * The workspace's library files, sorted by name (an empty list when it has none). Only
 * regular files count: anything else found there is skipped.
 */
export async function listLibrary(baseDir: string, workspaceId: string): Promise<LibraryFile[]> {
  const dir = libraryFilesDirFor(baseDir, workspaceId);
  let names: string[];
  try {
    names = (await fs.readdir(dir)).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  const out: LibraryFile[] = [];
  for (const name of names) {
    const abs = path.join(dir, name);
    const st = await fs.lstat(abs).catch(() => null);
    if (!st?.isFile() || name.startsWith(".")) continue;
    out.push({ name, sizeBytes: st.size, kind: await kindOfStored(abs), updatedAt: st.mtime.toISOString() });
  }
  return out;
}

/** One library change as the audit trail records it. */
export interface LibraryAuditEntry {
  at: string;
  actorId: string;
  action: "library_upload" | "library_delete";
  name: string;
  sizeBytes: number;
  /** SHA-256 hex of the uploaded bytes (uploads only). */
  sha256?: string;
}

/**
 * Where library changes are recorded: the audit trail's rows of the workspace
 * (lib/library/audit.ts libraryAuditSink; docs/library.md "Audit").
 */
export type LibraryAuditSink = (entry: LibraryAuditEntry) => Promise<void>;

/**
 * Adds (or replaces) files in the workspace's library, all or none checked first
 * (docs/library.md "Limits"): each name passes {@link libraryName}, each file is at most
 * {@link MAX_LIBRARY_FILE_BYTES} and of a kind {@link detectKind} accepts, and the library
 * afterwards holds at most {@link MAX_LIBRARY_FILES} files and {@link MAX_LIBRARY_BYTES} bytes.
 * Each file is written to a private temporary name and renamed into place, so a reader never
 * sees half a file. One audit entry per file, through `audit`.
 * @throws AppError unprocessable ("no_files", "invalid_file_name", "duplicate_file_name",
 *   "too_many_files"); payload_too_large ("file_too_large", "library_full");
 *   unsupported_media_type ("unsupported_file_type"); forbidden ("sandbox_violation").
 */
export async function addLibraryFiles(baseDir: string, workspaceId: string, files: readonly UploadedFile[], actorId: string, audit: LibraryAuditSink): Promise<LibraryFile[]> {
  if (files.length === 0) throw new AppError("unprocessable", "no_files", 'Send one or more files as multipart parts named "file".');
  const checked: { name: string; data: Uint8Array; kind: LibraryFileKind }[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    const name = libraryName(f.name);
    if (seen.has(name)) throw new AppError("unprocessable", "duplicate_file_name", `${JSON.stringify(name)} is sent twice.`);
    seen.add(name);
    if (f.data.byteLength > MAX_LIBRARY_FILE_BYTES) {
      throw new AppError("payload_too_large", "file_too_large", `${JSON.stringify(name)} is ${f.data.byteLength} bytes; a library file may be at most ${MAX_LIBRARY_FILE_BYTES} bytes (10 MB).`);
    }
    checked.push({ name, data: f.data, kind: await detectKind(name, f.data) });
  }
  const dir = await ensureLibrary(baseDir, workspaceId);
  const existing = await listLibrary(baseDir, workspaceId);
  const kept = existing.filter((e) => !seen.has(e.name));
  if (kept.length + checked.length > MAX_LIBRARY_FILES) {
    throw new AppError("unprocessable", "too_many_files", `The library would hold ${kept.length + checked.length} files; it holds at most ${MAX_LIBRARY_FILES}. Delete some first.`);
  }
  const total = kept.reduce((n, e) => n + e.sizeBytes, 0) + checked.reduce((n, f) => n + f.data.byteLength, 0);
  if (total > MAX_LIBRARY_BYTES) {
    throw new AppError("payload_too_large", "library_full", `The library would hold ${total} bytes; it holds at most ${MAX_LIBRARY_BYTES} bytes (50 MB). Delete some files first.`);
  }
  for (const f of checked) {
    const tmp = await fs.mkdtemp(path.join(path.dirname(dir), ".upload."));
    try {
      const staged = path.join(tmp, "file");
      await fs.writeFile(staged, f.data, { mode: 0o600, flag: "wx" });
      await fs.rename(staged, path.join(dir, f.name));
    } finally {
      await fs.rm(tmp, { recursive: true, force: true });
    }
    await audit({
      at: new Date().toISOString(),
      actorId,
      action: "library_upload",
      name: f.name,
      sizeBytes: f.data.byteLength,
      sha256: createHash("sha256").update(f.data).digest("hex"),
    });
  }
  const now = await listLibrary(baseDir, workspaceId);
  return now.filter((e) => seen.has(e.name));
}

/**
 * Deletes one library file (an audit entry, through `audit`, records it). Threads of flows that mount the
 * library stop seeing it; their own copies stay.
 * @throws AppError not_found / "not_found" when the library has no such file; the name errors
 *   of {@link libraryName}.
 */
export async function deleteLibraryFile(baseDir: string, workspaceId: string, rawName: string, actorId: string, audit: LibraryAuditSink): Promise<void> {
  const name = libraryName(rawName);
  const abs = path.join(libraryFilesDirFor(baseDir, workspaceId), name);
  const st = await fs.lstat(abs).catch(() => null);
  if (!st?.isFile()) throw new AppError("not_found", "not_found", `The library has no file ${JSON.stringify(name)}.`);
  await fs.unlink(abs);
  await audit({ at: new Date().toISOString(), actorId, action: "library_delete", name, sizeBytes: st.size });
}
