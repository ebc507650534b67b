import { AppError } from "../errors";

/** Limits of {@link readMultipartFiles}. */
export interface MultipartLimits {
  /** Largest whole request body, bytes: a declared Content-Length above it is refused unread. */
  maxBodyBytes: number;
  /** Most `file` parts. */
  maxFiles: number;
  /** Largest single file, bytes. */
  maxFileBytes: number;
}

/** One uploaded file: the file name the client sent and its bytes. */
export interface MultipartFile {
  name: string;
  data: Uint8Array;
  /** Size in bytes. */
  sizeBytes: number;
}

const MULTIPART = /^multipart\/form-data\s*;/i;

/**
 * Reads the parts named `file` of a `multipart/form-data` request (docs/library.md
 * "Uploading"; the shape RFC 7578 defines), within the limits. Other parts are ignored.
 * @throws AppError unsupported_media_type ("not_multipart") for another content type;
 *   payload_too_large ("body_too_large", "file_too_large") past the byte limits;
 *   unprocessable ("no_files", "too_many_files", "invalid_multipart") for no file, too many,
 *   or a body that does not parse.
 */
export async function readMultipartFiles(req: Request, limits: MultipartLimits): Promise<MultipartFile[]> {
  const type = req.headers.get("content-type") ?? "";
  if (!MULTIPART.test(type)) {
    throw new AppError("unsupported_media_type", "not_multipart", `Send the files as multipart/form-data (parts named "file"), not ${type.slice(0, 100) || "no content type"}.`);
  }
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limits.maxBodyBytes) {
    throw new AppError("payload_too_large", "body_too_large", `The upload is ${declared} bytes; at most ${limits.maxBodyBytes} bytes are accepted in one request.`);
  }
  const body = await readCapped(req, limits.maxBodyBytes);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    throw new AppError("unprocessable", "invalid_multipart", 'The multipart body could not be read; send parts named "file" with a filename.');
  }
  const parts = form.getAll("file");
  if (parts.length === 0) throw new AppError("unprocessable", "no_files", 'Send one or more files as multipart parts named "file".');
  if (parts.length > limits.maxFiles) throw new AppError("unprocessable", "too_many_files", `${parts.length} files sent; at most ${limits.maxFiles} per request.`);
  const out: MultipartFile[] = [];
  for (const part of parts) {
    if (typeof part === "string") throw new AppError("unprocessable", "invalid_multipart", 'A part named "file" must be a file with a filename, not a text field.');
    if (part.size > limits.maxFileBytes) {
      throw new AppError("payload_too_large", "file_too_large", `${JSON.stringify(part.name.slice(0, 120))} is ${part.size} bytes; a file may be at most ${limits.maxFileBytes} bytes.`);
    }
    out.push({ name: part.name, data: new Uint8Array(await part.arrayBuffer()), sizeBytes: part.size });
  }
  return out;
}

/** The body's bytes, refusing (413) once more than `max` arrive, whatever Content-Length said. */
async function readCapped(req: Request, max: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => {});
      throw new AppError("payload_too_large", "body_too_large", `The upload is more than ${max} bytes; at most ${max} bytes are accepted in one request.`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
