import { createHash } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import path from "node:path";
import { AppError } from "../errors";
import { RESERVED_SEGMENT, realWorkspaceRoot, resolveInWorkspace, toWorkspacePath } from "../tools/sandbox";
import { isUtf8Text } from "./detect";
import { DEFAULT_EXTRACT_TIMEOUT_MS, type Extract, extractDocx, extractPdf, MAX_EXTRACT_CHARS, noTextLayer } from "./extract";

/**
 * What text a workspace path reads as (docs/documents.md "Extraction"): the one rule that
 * read_file and search_files share. A PDF or DOCX reads as its extracted text, with a line
 * at the top saying so; any other file as its UTF-8 text. Extracts are made at upload and
 * kept in the workspace's reserved folder (`.phylactery/extracts/<path>.json`, which the
 * sandbox refuses to every tool), keyed by the SHA-256 of the original, so a file changed
 * since is read afresh.
 */

/** Largest text file read as it is, bytes (1 MB; read_file's limit). */
export const MAX_TEXT_BYTES = 1_048_576;
/** Largest PDF or DOCX read, bytes (100 MB; uploads are capped lower by UPLOAD_MAX_FILE_BYTES). */
export const MAX_DOCUMENT_BYTES = 100 * 1_048_576;
/** O_NOFOLLOW where the platform has it. */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The extract kept beside an uploaded document. */
export interface StoredExtract extends Extract {
  /** SHA-256 hex of the original bytes the text was extracted from. */
  sha256: string;
}

/** What {@link readableText} gives. */
export interface ReadableText {
  /** The workspace path, `/` separated. */
  path: string;
  /** The text: the file's own, or a PDF's/DOCX's extract under a one-line header. */
  content: string;
  /** Where the text came from. */
  kind: "text" | "pdf" | "docx";
}

/** SHA-256 hex of bytes. */
export const sha256Hex = (data: Uint8Array) => createHash("sha256").update(data).digest("hex");

/** The sidecar file of a workspace path (absolute), inside the reserved folder. */
export function extractPathFor(realRoot: string, workspacePath: string): string {
  return `${path.join(realRoot, RESERVED_SEGMENT, "extracts", ...workspacePath.split("/"))}.json`;
}

/** The header line above an extract, e.g. `[Text extracted from the PDF "a.pdf" (3 pages).]`. */
export function extractHeader(workspacePath: string, e: Extract): string {
  const what = e.kind === "pdf" ? `the PDF ${JSON.stringify(workspacePath)} (${e.pages} page${e.pages === 1 ? "" : "s"})` : `the Word document (DOCX) ${JSON.stringify(workspacePath)}`;
  const cut = e.truncated ? ` Only its first ${MAX_EXTRACT_CHARS} characters are kept.` : "";
  return `[Text extracted from ${what}; the original can be downloaded.${cut}]\n\n`;
}

/**
 * Stores the extract of an uploaded document in the reserved folder (temp file + rename).
 * @param realRoot the real workspace root; `workspacePath` its canonical relative path.
 */
export async function storeExtract(realRoot: string, workspacePath: string, extract: StoredExtract): Promise<void> {
  const file = extractPathFor(realRoot, workspacePath);
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await fs.writeFile(tmp, JSON.stringify(extract), { mode: 0o600, flag: "wx" });
  await fs.rename(tmp, file);
}

/** Drops the extract of a path (when a non-document replaces it). Missing is fine. */
export async function dropExtract(realRoot: string, workspacePath: string): Promise<void> {
  await fs.rm(extractPathFor(realRoot, workspacePath), { force: true });
}

async function storedExtract(realRoot: string, workspacePath: string, sha: string): Promise<StoredExtract | null> {
  try {
    const handle = await fs.open(extractPathFor(realRoot, workspacePath), constants.O_RDONLY | NOFOLLOW);
    try {
      const e = JSON.parse(await handle.readFile("utf8")) as StoredExtract;
      return e.sha256 === sha && typeof e.text === "string" ? e : null;
    } finally {
      await handle.close();
    }
  } catch {
    return null;
  }
}

/** Whether bytes start like a PDF (`%PDF-`) or a zip (DOCX). */
function looksLike(bytes: Uint8Array): "pdf" | "zip" | null {
  if (Buffer.from(bytes.subarray(0, 5)).toString("latin1") === "%PDF-") return "pdf";
  if (bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04) return "zip";
  return null;
}

/**
 * The text a workspace path reads as (docs/documents.md "Extraction"), for read_file and
 * search_files. Opens the file without following a symlink swapped in after the sandbox check.
 * - A PDF or DOCX: its extract kept at upload when the file is unchanged (same SHA-256),
 *   else extracted now (time- and size-bounded); the text starts with {@link extractHeader}.
 * - Any other file: its UTF-8 text, at most {@link MAX_TEXT_BYTES}, no NUL byte.
 * @param workspaceDir the thread's workspace directory.
 * @param relPath the path relative to it, checked by the sandbox.
 * @throws AppError forbidden "sandbox_violation"; not_found "not_found"; bad_request
 *   "is_a_directory"; unprocessable "file_too_large", "binary_file", "no_text_layer" (a PDF
 *   with no text: a scan; OCR is not available), and the extraction
 *   errors of {@link extractPdf} / {@link extractDocx}.
 */
export async function readableText(workspaceDir: string, relPath: string, opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<ReadableText> {
  const abs = await resolveInWorkspace(workspaceDir, relPath, { mustExist: true });
  const root = await realWorkspaceRoot(workspaceDir);
  const shown = JSON.stringify(relPath);
  const workspacePath = toWorkspacePath(root, abs);
  const handle = await fs.open(abs, constants.O_RDONLY | NOFOLLOW);
  let bytes: Buffer;
  try {
    const st = await handle.stat();
    if (st.isDirectory()) throw new AppError("bad_request", "is_a_directory", `${shown} is a directory; use list_files.`);
    if (!st.isFile()) throw new AppError("forbidden", "sandbox_violation", `Path ${shown} is refused: not a regular file.`);
    if (st.size > MAX_DOCUMENT_BYTES) throw new AppError("unprocessable", "file_too_large", `${shown} is ${st.size} bytes; files up to ${MAX_DOCUMENT_BYTES} bytes are read.`);
    bytes = await handle.readFile(opts.signal ? { signal: opts.signal } : {});
  } finally {
    await handle.close();
  }
  const kind = looksLike(bytes);
  if (kind !== null) {
    const sha = sha256Hex(bytes);
    const kept = await storedExtract(root, workspacePath, sha);
    const extract = kept ?? (kind === "pdf" ? await extractPdf(bytes, relPath, opts.timeoutMs) : await docxOrNull(bytes, relPath, opts.timeoutMs));
    const empty = extract && noTextLayer(workspacePath, extract);
    if (empty) throw new AppError("unprocessable", "no_text_layer", empty);
    if (extract) return { path: workspacePath, content: extractHeader(workspacePath, extract) + extract.text, kind: extract.kind };
  }
  if (bytes.byteLength > MAX_TEXT_BYTES) {
    throw new AppError("unprocessable", "file_too_large", `${shown} is ${bytes.byteLength} bytes; read_file reads files up to ${MAX_TEXT_BYTES} bytes (1 MB).`);
  }
  if (bytes.includes(0) || (kind !== null && !isUtf8Text(bytes))) {
    throw new AppError("unprocessable", "binary_file", `${shown} looks like a binary file; read_file reads text, PDF and DOCX only.`);
  }
  return { path: workspacePath, content: bytes.toString("utf8"), kind: "text" };
}

/** A zip that is a DOCX gives its extract; any other zip, null (read as bytes, then refused). */
async function docxOrNull(bytes: Uint8Array, relPath: string, timeoutMs = DEFAULT_EXTRACT_TIMEOUT_MS): Promise<Extract | null> {
  const { fileTypeFromBuffer } = await import("file-type");
  const t = await fileTypeFromBuffer(bytes);
  return t?.ext === "docx" ? extractDocx(bytes, relPath, timeoutMs) : null;
}
