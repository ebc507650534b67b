import { fileTypeFromBuffer } from "file-type";
import { AppError } from "../errors";

/**
 * What an uploaded file is, judged from its bytes, never its name (docs/documents.md
 * "Types"): `file-type` reads the magic numbers; a file without any must be UTF-8 text.
 */

/** The kinds of file a workspace accepts. */
export type DocumentKind = "pdf" | "docx" | "text" | "image";

/** A detected file type. */
export interface DetectedType {
  kind: DocumentKind;
  /** Media type, e.g. "application/pdf" or "text/plain; charset=utf-8". */
  mime: string;
}

/** Images kept as they are (downloadable, not readable by read_file). */
const IMAGE_MIMES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const DOCX_MIME = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** True when `bytes` decode as UTF-8 without error and hold no NUL byte. */
export function isUtf8Text(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The stream an encrypted Office (OOXML) document keeps its package in, as a compound file names it (UTF-16LE). */
const ENCRYPTED_PACKAGE = Buffer.from("EncryptedPackage", "utf16le");

/**
 * True when a compound file (CFB) holds an `EncryptedPackage` stream: a password-protected
 * DOCX (or XLSX, PPTX) is saved as such a compound file, not as a zip (docs/documents.md "Types").
 */
export function isEncryptedOffice(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(ENCRYPTED_PACKAGE);
}

/**
 * The type of a file from its content (docs/documents.md "Types"): PDF, DOCX, PNG, JPEG,
 * GIF or WebP by their signatures; otherwise UTF-8 text (0 bytes count as text).
 * @param field the request field, for the error (e.g. `file[0]`).
 * @throws AppError 415 "type_refused" naming the type found (an executable, an archive, a
 *   format not listed) or saying the bytes are neither a known format nor UTF-8 text;
 *   AppError 422 "document_encrypted" for a password-protected Office document.
 */
export async function detectType(bytes: Uint8Array, field: string, name: string): Promise<DetectedType> {
  const found = bytes.byteLength === 0 ? undefined : await fileTypeFromBuffer(bytes);
  if (!found) {
    if (isUtf8Text(bytes)) return { kind: "text", mime: "text/plain; charset=utf-8" };
    throw new AppError(
      "unsupported_media_type",
      "type_refused",
      `${field} (${JSON.stringify(name)}): its content is neither a known document format nor UTF-8 text; accepted are PDF, DOCX, PNG, JPEG, GIF, WebP and UTF-8 text.`,
      { field },
    );
  }
  if (found.mime === "application/pdf") return { kind: "pdf", mime: found.mime };
  if (found.mime === DOCX_MIME) return { kind: "docx", mime: found.mime };
  if (IMAGE_MIMES.has(found.mime)) return { kind: "image", mime: found.mime };
  if (found.ext === "cfb" && isEncryptedOffice(bytes)) {
    throw new AppError(
      "unprocessable",
      "document_encrypted",
      `${field} (${JSON.stringify(name)}): the Office document is encrypted (password protected), so its text cannot be read; upload an unprotected copy.`,
      { field },
    );
  }
  throw new AppError(
    "unsupported_media_type",
    "type_refused",
    `${field} (${JSON.stringify(name)}): its content is ${found.mime} (.${found.ext}), whatever its name says; accepted are PDF, DOCX, PNG, JPEG, GIF, WebP and UTF-8 text.`,
    { field, detected: found.mime },
  );
}
