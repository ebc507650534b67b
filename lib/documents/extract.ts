import { unzipSync } from "fflate";
import { AppError } from "../errors";

/**
 * Text extraction from PDF (`unpdf`) and DOCX (`mammoth`) (docs/documents.md "Extraction").
 * Both are bounded: a wall-clock limit, a cap on pages, a cap on the DOCX's unpacked size
 * and a cap on the characters kept, so a crafted document cannot hang or flood the server.
 */

/** Most characters of extracted text kept (1 MB of ASCII, read_file's limit). */
export const MAX_EXTRACT_CHARS = 1_048_576;
/** Most pages of a PDF read. */
export const MAX_PDF_PAGES = 2_000;
/** Most bytes a DOCX may unpack to, as its zip directory declares, bytes (100 MB). */
export const MAX_DOCX_UNPACKED_BYTES = 100 * 1_048_576;
/** Default wall-clock limit of one extraction, ms. */
export const DEFAULT_EXTRACT_TIMEOUT_MS = 20_000;

/** The text of a document. */
export interface Extract {
  kind: "pdf" | "docx";
  text: string;
  /** Pages of a PDF; null for DOCX (it has no fixed pages). */
  pages: number | null;
  /** True when the text was cut at {@link MAX_EXTRACT_CHARS}. */
  truncated: boolean;
}

function refused(name: string, why: string, reason = "extraction_failed"): AppError {
  return new AppError("unprocessable", reason, `${JSON.stringify(name)}: ${why}`);
}

/** Runs `work` with a deadline; `onTimeout` releases what it holds. */
async function withDeadline<T>(work: Promise<T>, ms: number, name: string, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(refused(name, `extracting its text took longer than ${ms} ms; the document is too complex to read.`, "extraction_timeout"));
    }, ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function capped(text: string): { text: string; truncated: boolean } {
  const clean = text.replaceAll("\u0000", "");
  return clean.length > MAX_EXTRACT_CHARS ? { text: clean.slice(0, MAX_EXTRACT_CHARS), truncated: true } : { text: clean, truncated: false };
}

/**
 * The text of a PDF, pages merged (unpdf `extractText` with `mergePages`).
 * @param name the file's workspace path, for messages.
 * @throws AppError 422 "pdf_encrypted" (password protected), "extraction_failed" (broken),
 *   "too_many_pages" (over {@link MAX_PDF_PAGES}), "extraction_timeout" (over `timeoutMs`).
 */
export async function extractPdf(bytes: Uint8Array, name: string, timeoutMs = DEFAULT_EXTRACT_TIMEOUT_MS): Promise<Extract> {
  const { extractText, getDocumentProxy } = await import("unpdf");
  let doc: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  let timedOut = false;
  const work = (async () => {
    try {
      // pdf.js takes ownership of the buffer it is given: give it a copy.
      doc = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: true, verbosity: 0 });
    } catch (err) {
      const n = (err as { name?: string } | undefined)?.name;
      if (n === "PasswordException") throw refused(name, "the PDF is encrypted (password protected); upload an unprotected copy.", "pdf_encrypted");
      throw refused(name, `the PDF cannot be read (${String((err as Error)?.message ?? err).slice(0, 200)}).`);
    }
    if (timedOut) throw refused(name, "extraction was cancelled.", "extraction_timeout");
    if (doc.numPages > MAX_PDF_PAGES) throw refused(name, `the PDF has ${doc.numPages} pages; at most ${MAX_PDF_PAGES} are read.`, "too_many_pages");
    try {
      const { totalPages, text } = await extractText(doc, { mergePages: true });
      return { kind: "pdf" as const, pages: totalPages, ...capped(text) };
    } catch (err) {
      throw refused(name, `the PDF's text cannot be extracted (${String((err as Error)?.message ?? err).slice(0, 200)}).`);
    }
  })();
  try {
    return await withDeadline(work, timeoutMs, name, () => {
      timedOut = true;
      void doc?.destroy();
    });
  } finally {
    if (!timedOut) await doc?.destroy().catch(() => undefined);
  }
}

/**
 * The raw text of a DOCX (mammoth `extractRawText`), after checking the sizes its zip
 * directory declares.
 * @throws AppError 422 "extraction_failed" (not a readable DOCX), "document_too_large"
 *   (unpacks to over {@link MAX_DOCX_UNPACKED_BYTES}), "extraction_timeout".
 */
export async function extractDocx(bytes: Uint8Array, name: string, timeoutMs = DEFAULT_EXTRACT_TIMEOUT_MS): Promise<Extract> {
  let unpacked = 0;
  try {
    // The filter sees each entry's declared size and decompresses nothing.
    unzipSync(bytes, {
      filter: (f) => {
        unpacked += f.originalSize;
        return false;
      },
    });
  } catch (err) {
    throw refused(name, `the DOCX cannot be read (${String((err as Error)?.message ?? err).slice(0, 200)}).`);
  }
  if (unpacked > MAX_DOCX_UNPACKED_BYTES) throw refused(name, `the DOCX unpacks to ${unpacked} bytes; at most ${MAX_DOCX_UNPACKED_BYTES} are read.`, "document_too_large");
  const mammoth = (await import("mammoth")).default;
  const work = mammoth.extractRawText({ buffer: Buffer.from(bytes) }).then(
    (r) => ({ kind: "docx" as const, pages: null, ...capped(r.value) }),
    (err: unknown) => {
      throw refused(name, `the DOCX's text cannot be extracted (${String((err as Error)?.message ?? err).slice(0, 200)}).`);
    },
  );
  return withDeadline(work, timeoutMs, name, () => undefined);
}
