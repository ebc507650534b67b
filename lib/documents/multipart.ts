import { AppError } from "../errors";
import { formatBytes } from "../http/input-limits";

/**
 * A streaming reader of `multipart/form-data` bodies (RFC 7578) for uploads
 * (docs/documents.md "Limits"). Unlike `request.formData()`, which buffers the whole body
 * before anything can count it, it reads the body chunk by chunk and keeps at most one
 * file's bytes (up to the per-file cap) in memory: a 100 MB upload is refused after the
 * cap, its rest read and dropped, never held. It is the one multipart reader: thread uploads
 * (docs/documents.md) and the workspace library (docs/library.md "Uploading") both use it,
 * each naming its own limits in the refusals.
 */

/** One file part of an upload. */
export interface UploadPart {
  /** Index of the part among the `file` parts, from 0 (for error messages: `file[2]`). */
  index: number;
  /** The part's `filename` as sent (decoded from `filename*` when given). */
  filename: string;
  /** The file's bytes. */
  bytes: Buffer;
}

/** Caps of {@link readUploadParts}. */
export interface MultipartLimits {
  /** Largest file, bytes. */
  maxFileBytes: number;
  /** Most bytes of all files together, bytes. */
  maxTotalBytes: number;
  /** Most `file` parts. */
  maxFiles: number;
  /** Most body bytes read and dropped after a cap was hit, before the reader gives up, bytes. */
  maxDrainBytes?: number;
  /** What the per-file limit is called in a refusal (default: the setting `UPLOAD_MAX_FILE_BYTES`). */
  fileLimitName?: string;
  /**
   * The refusal past `maxTotalBytes`: its reason and what it says the limit holds (default
   * "workspace_full", "the workspace may hold", the setting `UPLOAD_MAX_WORKSPACE_BYTES`).
   */
  totalRefusal?: { reason: string; holds: string; limitName: string };
  /** What `maxFiles` counts, in a refusal (default "per upload (and per workspace)"). */
  filesScope?: string;
}

const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");
/** Most bytes of one part's headers. */
const MAX_HEADER_BYTES = 16_384;
/** Most non-file parts (fields other than `file`), which are read and ignored. */
const MAX_OTHER_PARTS = 20;

/** The boundary of a multipart/form-data content type. @throws AppError 415 otherwise. */
export function multipartBoundary(contentType: string | null): string {
  const type = contentType ?? "";
  if (!/^multipart\/form-data\s*(;|$)/i.test(type.trim())) {
    throw new AppError(
      "unsupported_media_type",
      "not_multipart",
      `Send the files as multipart/form-data with one or more parts named "file", not ${(contentType ?? "no content type").slice(0, 100)}.`,
    );
  }
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(type);
  const boundary = m?.[1] ?? m?.[2];
  if (!boundary) throw new AppError("bad_request", "bad_multipart", "The multipart/form-data content type has no boundary.");
  return boundary;
}

/** Reads a `name="value"` parameter of a Content-Disposition header. */
function dispositionParam(header: string, name: string): string | undefined {
  const star = new RegExp(`;\\s*${name}\\*\\s*=\\s*(?:UTF-8|utf-8)''([^;]*)`).exec(header);
  if (star?.[1] !== undefined) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      return undefined;
    }
  }
  const quoted = new RegExp(`;\\s*${name}\\s*=\\s*"((?:[^"\\\\]|\\\\.)*)"`).exec(header);
  if (quoted?.[1] !== undefined) return quoted[1].replace(/\\(.)/g, "$1");
  const bare = new RegExp(`;\\s*${name}\\s*=\\s*([^;\\s]*)`).exec(header);
  return bare?.[1];
}

/**
 * Reads the `file` parts of a multipart/form-data body as it streams in.
 * Browsers percent-encode `"` and line breaks in file names (HTML's form encoding); names
 * are taken as sent (UTF-8) and checked by the caller.
 * @param body the request body stream.
 * @param contentType the request's Content-Type (its boundary is used).
 * @returns the file parts in order; other fields are ignored.
 * @throws AppError 413 "file_too_large" (one file over `maxFileBytes`) or
 *   `totalRefusal.reason` (default "workspace_full": all files over `maxTotalBytes`), naming
 *   the part and the limit;
 *   422 "too_many_files" (over `maxFiles` parts), "no_files" (no `file` part),
 *   "missing_filename" (a `file` part without a filename); 415 "not_multipart";
 *   400 "bad_multipart" for a malformed body.
 */
export async function readUploadParts(body: ReadableStream<Uint8Array> | null, contentType: string | null, limits: MultipartLimits): Promise<UploadPart[]> {
  const boundary = multipartBoundary(contentType);
  if (!body) throw new AppError("unprocessable", "no_files", 'file: the body has no parts named "file".');
  const first = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const reader = body.getReader();
  const maxDrain = limits.maxDrainBytes ?? 256 * 1_048_576;

  let buf = Buffer.alloc(0);
  let done = false;
  let refusal: AppError | null = null;
  let drained = 0;

  async function more(): Promise<boolean> {
    if (done) return false;
    const r = await reader.read();
    if (r.done) {
      done = true;
      return false;
    }
    buf = buf.length === 0 ? Buffer.from(r.value) : Buffer.concat([buf, r.value]);
    return true;
  }

  /** After a refusal: reads and drops the rest of the body (bounded), so the client hears the answer. */
  async function drain(err: AppError): Promise<never> {
    refusal = err;
    buf = Buffer.alloc(0);
    while (!done && drained < maxDrain) {
      const r = await reader.read();
      if (r.done) done = true;
      else drained += r.value.byteLength;
    }
    if (!done) await reader.cancel().catch(() => undefined);
    throw refusal;
  }

  // Preamble, then the first boundary.
  for (;;) {
    const at = buf.indexOf(first);
    if (at >= 0) {
      buf = buf.subarray(at + first.length);
      break;
    }
    if (buf.length > MAX_HEADER_BYTES) await drain(new AppError("bad_request", "bad_multipart", "The multipart body does not start with its boundary."));
    if (!(await more())) throw new AppError("bad_request", "bad_multipart", "The multipart body has no boundary line.");
  }

  const parts: UploadPart[] = [];
  let total = 0;
  let others = 0;
  for (;;) {
    // After a boundary: "--" ends the body, CRLF starts a part.
    while (buf.length < 2 && (await more()));
    if (buf.subarray(0, 2).toString() === "--") break;
    if (buf.indexOf(CRLF) !== 0) throw new AppError("bad_request", "bad_multipart", "The multipart body is malformed after a boundary.");
    buf = buf.subarray(2);
    // Headers.
    let end = buf.indexOf(HEADER_END);
    while (end < 0) {
      if (buf.length > MAX_HEADER_BYTES) throw new AppError("bad_request", "bad_multipart", "A multipart part's headers are longer than 16 KB.");
      if (!(await more())) throw new AppError("bad_request", "bad_multipart", "The multipart body ends inside a part's headers.");
      end = buf.indexOf(HEADER_END);
    }
    // Header values are UTF-8 for file names (RFC 7578 §4.2 leaves the charset to the form's).
    const headers = buf.subarray(0, end).toString("utf8");
    buf = buf.subarray(end + HEADER_END.length);
    const disposition = /^content-disposition:(.*)$/im.exec(headers)?.[1] ?? "";
    const name = dispositionParam(disposition, "name");
    const isFile = name === "file";
    const index = parts.length;
    if (isFile) {
      if (parts.length >= limits.maxFiles) {
        await drain(
          new AppError("unprocessable", "too_many_files", `file: at most ${limits.maxFiles} files ${limits.filesScope ?? "per upload (and per workspace)"}.`, {
            field: "file",
            limit: limits.maxFiles,
          }),
        );
      }
    } else if (++others > MAX_OTHER_PARTS) {
      await drain(new AppError("unprocessable", "too_many_parts", `The upload has more than ${MAX_OTHER_PARTS} parts not named "file".`));
    }
    const filename = isFile ? dispositionParam(disposition, "filename") : undefined;
    if (isFile && (filename === undefined || filename === "")) {
      await drain(new AppError("unprocessable", "missing_filename", `file[${index}]: the part has no filename; send it as a file (filename="...").`, { field: `file[${index}]` }));
    }
    // Body: up to the next delimiter, holding back a possible partial delimiter.
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const at = buf.indexOf(delimiter);
      const take = at >= 0 ? at : Math.max(0, buf.length - delimiter.length + 1);
      if (take > 0) {
        const piece = buf.subarray(0, take);
        size += piece.length;
        if (isFile) {
          if (size > limits.maxFileBytes) {
            await drain(
              new AppError(
                "payload_too_large",
                "file_too_large",
                `file[${index}] (${JSON.stringify(filename)}): a file may be at most ${formatBytes(limits.maxFileBytes)} (${limits.fileLimitName ?? "UPLOAD_MAX_FILE_BYTES"}).`,
                {
                  field: `file[${index}]`,
                  limitBytes: limits.maxFileBytes,
                },
              ),
            );
          }
          if (total + size > limits.maxTotalBytes) {
            const over = limits.totalRefusal ?? { reason: "workspace_full", holds: "the workspace may hold", limitName: "UPLOAD_MAX_WORKSPACE_BYTES" };
            await drain(
              new AppError("payload_too_large", over.reason, `file[${index}] (${JSON.stringify(filename)}): ${over.holds} at most ${formatBytes(limits.maxTotalBytes)} (${over.limitName}).`, {
                field: `file[${index}]`,
                limitBytes: limits.maxTotalBytes,
              }),
            );
          }
          chunks.push(Buffer.from(piece));
        } else if (size > MAX_HEADER_BYTES) {
          await drain(new AppError("unprocessable", "field_too_large", `${name ?? "a field"}: fields other than "file" are ignored and may be at most 16 KB.`));
        }
        buf = buf.subarray(take);
      }
      if (at >= 0) {
        buf = buf.subarray(delimiter.length);
        break;
      }
      if (!(await more())) throw new AppError("bad_request", "bad_multipart", "The multipart body ends inside a part (no closing boundary).");
    }
    if (isFile) {
      total += size;
      parts.push({ index, filename: filename ?? "", bytes: Buffer.concat(chunks, size) });
    }
  }
  // The epilogue, if any, is not read.
  await reader.cancel().catch(() => undefined);
  if (parts.length === 0) throw new AppError("unprocessable", "no_files", 'file: the body has no parts named "file".', { field: "file" });
  return parts;
}
