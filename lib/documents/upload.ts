import "server-only";
import { randomUUID } from "node:crypto";
import { constants, promises as fs } from "node:fs";
import path from "node:path";
import type { Db } from "../db/client";
import { HEARTBEAT_MS, leaseRunOf, releaseLease, renewLease, takeHeldLease } from "../db/lease";
import { getThread } from "../db/threads";
import { requireCapability } from "../auth/roles";
import { type Caller, callerId } from "../auth/membership";
import { AppError, isAppError } from "../errors";
import { formatBytes } from "../http/input-limits";
import { RESERVED_SEGMENT, realWorkspaceRoot, splitWorkspacePath } from "../tools/sandbox";
import { ensureWorkspace } from "../tools/workspace";
import { type DetectedType, detectType } from "./detect";
import { type Extract, extractDocx, extractPdf, noTextLayer } from "./extract";
import { readUploadParts } from "./multipart";
import { dropExtract, sha256Hex, storeExtract } from "./readable";
import { workspaceFiles } from "./walk";

/**
 * Uploads into a thread's workspace (docs/documents.md): names pass the sandbox's path rules,
 * types are judged from content, PDF and DOCX text is extracted, limits are counted, and the
 * files are written while the thread's lease is held, so no run starts while they change.
 */

/** Upload limits (from the environment: UPLOAD_MAX_FILE_BYTES, UPLOAD_MAX_WORKSPACE_BYTES, UPLOAD_MAX_FILES). */
export interface UploadLimits {
  maxFileBytes: number;
  maxWorkspaceBytes: number;
  maxFiles: number;
  /** Wall-clock limit of one extraction, ms. */
  extractTimeoutMs: number;
}

/** One file written by an upload. */
export interface UploadedFile {
  path: string;
  sizeBytes: number;
  sha256: string;
  /** Media type detected from the content. */
  type: string;
  /** "pdf" and "docx" files read as their extracted text; "text" as is; "image" not at all. */
  kind: DetectedType["kind"];
  /** Pages of a PDF, else null. */
  pages: number | null;
  /** Characters of extracted text, for PDF and DOCX; null otherwise. */
  extractedChars: number | null;
  /** True when the file replaced one of the same name. */
  replaced: boolean;
  /**
   * What a reader should know, when there is something: a PDF with no text layer (a scan;
   * OCR is not available, docs/documents.md "Scanned PDFs") is kept but reads as no text.
   */
  note?: string;
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

function badName(field: string, name: string, why: string): AppError {
  return new AppError("unprocessable", "invalid_file_name", `${field}: the name ${JSON.stringify(name.slice(0, 200))} is refused: ${why}`, { field });
}

/**
 * The workspace path an uploaded file's name stands for, checked lexically by the sandbox's
 * rules and then on disk: no component may be a symlink, and the file may not name a folder.
 * @returns the canonical path (`a/b.pdf`) and whether a file of that name exists.
 * @throws AppError 422 "invalid_file_name" naming the field.
 */
async function checkName(realRoot: string, field: string, name: string): Promise<{ rel: string; exists: boolean }> {
  let segments: string[];
  try {
    segments = splitWorkspacePath(name);
  } catch (err) {
    throw isAppError(err) ? badName(field, name, err.message.replace(/^Path .*? is refused: /, "")) : err;
  }
  if (segments.length === 0) throw badName(field, name, "it names the workspace root, not a file.");
  let cur = realRoot;
  for (const [i, seg] of segments.entries()) {
    cur = path.join(cur, seg);
    let st: Awaited<ReturnType<typeof fs.lstat>>;
    try {
      st = await fs.lstat(cur);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return { rel: segments.join("/"), exists: false };
      if (code === "ENOTDIR") throw badName(field, name, `"${segments.slice(0, i).join("/")}" is a file, not a folder.`);
      throw err;
    }
    const last = i === segments.length - 1;
    if (st.isSymbolicLink()) throw badName(field, name, `"${segments.slice(0, i + 1).join("/")}" is a symlink in the workspace; uploads never write through one.`);
    if (last && st.isDirectory()) throw badName(field, name, "it is a folder in the workspace.");
    if (last && !st.isFile()) throw badName(field, name, "it is a device, FIFO or socket in the workspace.");
    if (!last && !st.isDirectory()) throw badName(field, name, `"${segments.slice(0, i + 1).join("/")}" is a file, not a folder.`);
  }
  return { rel: segments.join("/"), exists: true };
}

/**
 * Writes `bytes` at `rel` atomically: a private temp file in the reserved folder, then a
 * rename over the target, after the path is checked again (the rename replaces an entry; it
 * never writes through a symlink).
 */
async function writeAtomically(realRoot: string, field: string, name: string, rel: string, bytes: Uint8Array): Promise<void> {
  const tmpDir = path.join(realRoot, RESERVED_SEGMENT, "uploads");
  await fs.mkdir(tmpDir, { recursive: true, mode: 0o700 });
  const tmp = path.join(tmpDir, `${randomUUID()}.part`);
  const handle = await fs.open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    const segments = rel.split("/");
    let dir = realRoot;
    for (const seg of segments.slice(0, -1)) {
      dir = path.join(dir, seg);
      await fs.mkdir(dir, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== "EEXIST") throw err;
      });
    }
    await checkName(realRoot, field, name);
    await fs.rename(tmp, path.join(realRoot, ...segments));
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Uploads the `file` parts of a multipart request into the thread's workspace
 * (docs/documents.md "Upload").
 * @param input.userId a user id, or the access the route resolved (lib/auth/membership.ts `Caller`: no query).
 * @param input.req the request; its body is read as a stream with byte caps.
 * @returns the files written, in the order sent.
 * @throws AppError 404 (thread not found or in another workspace), 403 "role_forbidden"
 *   (viewer), 409 "run_in_progress" (a run owns the thread), 413 "file_too_large" /
 *   "workspace_full", 415 "not_multipart" / "type_refused", 422 "invalid_file_name" /
 *   "too_many_files" / "duplicate_file_name" / "no_files" and the extraction errors
 *   ("pdf_encrypted", "extraction_failed", "extraction_timeout", ...), each naming the field.
 */
export async function uploadFiles(db: Db, input: { userId: Caller; threadId: string; req: Request; workspacesDir: string; limits: UploadLimits }): Promise<UploadedFile[]> {
  const { limits } = input;
  const thread = await getThread(db, input.userId, input.threadId);
  requireCapability(thread.role, "run");
  const busy = () => new AppError("conflict", "run_in_progress", "A run is going on this thread; upload files before a run or after it ends, so that no file changes under a running agent.");
  if (await leaseRunOf(db, thread.id)) throw busy();
  const realRoot = await realWorkspaceRoot(await ensureWorkspace(input.workspacesDir, thread.id));
  const before = await workspaceFiles(realRoot);
  const sizes = new Map(before.map((f) => [f.path, f.sizeBytes]));
  const usedBytes = before.reduce((n, f) => n + f.sizeBytes, 0);

  const parts = await readUploadParts(input.req.body, input.req.headers.get("content-type"), {
    maxFileBytes: limits.maxFileBytes,
    // No upload can be larger than a whole workspace; replaced files and what the workspace
    // already holds are counted exactly below.
    maxTotalBytes: limits.maxWorkspaceBytes,
    maxFiles: limits.maxFiles,
  });

  const prepared: (UploadedFile & { field: string; name: string; bytes: Buffer; extract: Extract | null })[] = [];
  const seen = new Set<string>();
  for (const part of parts) {
    const field = `file[${part.index}]`;
    const { rel, exists } = await checkName(realRoot, field, part.filename);
    const key = rel.normalize("NFC").toLowerCase();
    if (seen.has(key)) throw new AppError("unprocessable", "duplicate_file_name", `${field}: ${JSON.stringify(rel)} is sent twice in this upload.`, { field });
    seen.add(key);
    const type = await detectType(part.bytes, field, part.filename);
    const extract = type.kind === "pdf" ? await extractPdf(part.bytes, rel, limits.extractTimeoutMs) : type.kind === "docx" ? await extractDocx(part.bytes, rel, limits.extractTimeoutMs) : null;
    const note = extract && noTextLayer(rel, extract);
    prepared.push({
      field,
      name: part.filename,
      bytes: part.bytes,
      extract,
      path: rel,
      sizeBytes: part.bytes.byteLength,
      sha256: sha256Hex(part.bytes),
      type: type.mime,
      kind: type.kind,
      pages: extract?.pages ?? null,
      extractedChars: extract ? extract.text.length : null,
      replaced: exists,
      ...(note ? { note } : {}),
    });
  }

  const afterBytes = usedBytes + prepared.reduce((n, f) => n + f.sizeBytes - (sizes.get(f.path) ?? 0), 0);
  if (afterBytes > limits.maxWorkspaceBytes) {
    throw new AppError(
      "payload_too_large",
      "workspace_full",
      `file: the workspace would hold ${afterBytes} bytes; it may hold at most ${formatBytes(limits.maxWorkspaceBytes)} (UPLOAD_MAX_WORKSPACE_BYTES).`,
      { field: "file", limitBytes: limits.maxWorkspaceBytes },
    );
  }
  const afterCount = before.length + prepared.filter((f) => !sizes.has(f.path)).length;
  if (afterCount > limits.maxFiles) {
    throw new AppError("unprocessable", "too_many_files", `file: the workspace would hold ${afterCount} files; it may hold at most ${limits.maxFiles} (UPLOAD_MAX_FILES).`, {
      field: "file",
      limit: limits.maxFiles,
    });
  }

  // Written while the thread's lease is held (docs/durability.md#the-lease): a run starting
  // now gets 409, and one already owning the thread makes this 409. The lease is taken and
  // released in short statements of their own, never a transaction around the writes (on
  // SQLite that would stop every other writer for the whole upload); a heartbeat keeps it
  // while files are written. If this process dies, the lease lapses like a dead worker's and
  // recovery frees the thread (lib/runs/worker.ts recoverRuns).
  const holder = `upload:${randomUUID()}`;
  if (!(await takeHeldLease(db, thread.id, holder, Date.now()))) throw busy();
  let lost = false;
  const heartbeat = setInterval(() => {
    renewLease(db, thread.id, holder, holder, Date.now()).then(
      (kept) => {
        if (!kept) lost = true;
      },
      () => undefined,
    );
  }, HEARTBEAT_MS);
  heartbeat.unref();
  try {
    for (const f of prepared) {
      if (lost) throw busy();
      await writeAtomically(realRoot, f.field, f.name, f.path, f.bytes);
      if (f.extract) await storeExtract(realRoot, f.path, { ...f.extract, sha256: f.sha256 });
      else await dropExtract(realRoot, f.path);
      await db.auditEntry.create({
        data: {
          threadId: thread.id,
          actorId: callerId(input.userId),
          action: "file_uploaded",
          detail: JSON.stringify({ path: f.path, sizeBytes: f.sizeBytes, sha256: f.sha256, type: f.type, pages: f.pages, replaced: f.replaced }),
        },
      });
    }
  } finally {
    clearInterval(heartbeat);
    await releaseLease(db, thread.id, holder);
  }
  return prepared.map(({ field: _f, name: _n, bytes: _b, extract: _e, ...f }) => f);
}
