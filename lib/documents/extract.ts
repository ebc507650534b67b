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

/**
 * Why a PDF reads as no text, or null when it has text: a PDF whose pages hold no text layer
 * (a scan, or pages of images) gives an empty extract, and OCR is not available
 * (docs/documents.md "Scanned PDFs"). Said at upload and by read_file instead of an empty text.
 */
export function noTextLayer(name: string, e: Extract): string | null {
  if (e.kind !== "pdf" || e.text.trim() !== "") return null;
  const pages = `${e.pages} page${e.pages === 1 ? "" : "s"}`;
  return `${JSON.stringify(name)}: the PDF has no text layer (its ${pages} hold${e.pages === 1 ? "s" : ""} no text: a scanned document, or images), and OCR (reading text from images) is not available, so its text cannot be read. Upload a PDF with a text layer, or the text itself.`;
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

/** One piece of text on a PDF page, in page units (points, origin bottom left). */
interface Piece {
  str: string;
  x0: number;
  x1: number;
  y: number;
  size: number;
}

/** Joins the pieces of one line, left to right, with a space where pdf.js left a gap. */
function lineText(pieces: Piece[]): string {
  const sorted = [...pieces].sort((a, b) => a.x0 - b.x0);
  let out = "";
  let end = Number.NEGATIVE_INFINITY;
  for (const p of sorted) {
    if (out && !/\s$/.test(out) && !/^\s/.test(p.str) && p.x0 - end > p.size * 0.15) out += " ";
    out += p.str;
    end = p.x1;
  }
  return out.replace(/\s+/g, " ").trim();
}

/** The pieces grouped into lines, top to bottom (same baseline within half a font size). */
function linesOf(pieces: Piece[]): Piece[][] {
  const lines: { y: number; size: number; pieces: Piece[] }[] = [];
  for (const p of [...pieces].sort((a, b) => b.y - a.y || a.x0 - b.x0)) {
    const line = lines.find((l) => Math.abs(l.y - p.y) <= Math.max(l.size, p.size) / 2);
    if (line) line.pieces.push(p);
    else lines.push({ y: p.y, size: p.size, pieces: [p] });
  }
  return lines.sort((a, b) => b.y - a.y).map((l) => l.pieces);
}

/**
 * The widest vertical strip of the page that no text crosses, between text on both sides, or
 * null: the gutter of a two-column page. Pieces as wide as half the text are left out (a
 * title across both columns), and each side must hold text on at least 3 lines.
 */
function gutterOf(pieces: Piece[]): [number, number] | null {
  if (pieces.length < 6) return null;
  const left = Math.min(...pieces.map((p) => p.x0));
  const right = Math.max(...pieces.map((p) => p.x1));
  const narrow = pieces.filter((p) => p.x1 - p.x0 < (right - left) / 2).sort((a, b) => a.x0 - b.x0);
  const size = narrow.map((p) => p.size).sort((a, b) => a - b)[Math.floor(narrow.length / 2)] ?? 10;
  let best: [number, number] | null = null;
  let reach = Number.NEGATIVE_INFINITY;
  for (const p of narrow) {
    if (reach > Number.NEGATIVE_INFINITY && p.x0 - reach >= size * 1.5 && (!best || p.x0 - reach > best[1] - best[0])) best = [reach, p.x0];
    reach = Math.max(reach, p.x1);
  }
  if (!best) return null;
  const [g0, g1] = best;
  const rows = (side: Piece[]) => new Set(side.map((p) => Math.round(p.y))).size;
  return rows(narrow.filter((p) => p.x1 <= g0)) >= 3 && rows(narrow.filter((p) => p.x0 >= g1)) >= 3 ? best : null;
}

/**
 * A page's text in reading order (docs/documents.md "Extraction"): lines top to bottom; on a
 * two-column page, the left column's lines, then the right column's, with a line that
 * crosses the gutter (a title, a full-width paragraph) closing the columns above it.
 */
function pageText(pieces: Piece[]): string {
  const text = pieces.filter((p) => p.str.trim() !== "");
  const gutter = gutterOf(text);
  const out: string[] = [];
  if (!gutter) {
    for (const line of linesOf(text)) out.push(lineText(line));
    return out.join("\n");
  }
  const [g0, g1] = gutter;
  let leftCol: string[] = [];
  let rightCol: string[] = [];
  const flush = () => {
    if (leftCol.length && rightCol.length) out.push([...leftCol, "", ...rightCol].join("\n"));
    else out.push(...leftCol, ...rightCol);
    leftCol = [];
    rightCol = [];
  };
  for (const line of linesOf(text)) {
    if (line.some((p) => p.x0 < g0 && p.x1 > g1)) {
      flush();
      out.push(lineText(line));
      continue;
    }
    const l = line.filter((p) => p.x1 <= g0);
    const r = line.filter((p) => p.x0 >= g1);
    if (l.length) leftCol.push(lineText(l));
    if (r.length) rightCol.push(lineText(r));
  }
  flush();
  return out.join("\n");
}

/**
 * The text of a PDF, page by page in reading order ({@link pageText}, from pdf.js text
 * positions via unpdf's document proxy), pages separated by a blank line.
 * @param name the file's workspace path, for messages.
 * @throws AppError 422 "pdf_encrypted" (password protected), "extraction_failed" (broken),
 *   "too_many_pages" (over {@link MAX_PDF_PAGES}), "extraction_timeout" (over `timeoutMs`).
 */
export async function extractPdf(bytes: Uint8Array, name: string, timeoutMs = DEFAULT_EXTRACT_TIMEOUT_MS): Promise<Extract> {
  const { getDocumentProxy } = await import("unpdf");
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
      const pages: string[] = [];
      let chars = 0;
      for (let n = 1; n <= doc.numPages && chars <= MAX_EXTRACT_CHARS && !timedOut; n++) {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        const pieces: Piece[] = [];
        for (const item of content.items) {
          if (!("str" in item) || !item.str) continue;
          const [a, b, , , x, y] = item.transform as number[];
          const size = Math.hypot(a ?? 0, b ?? 0) || item.height || 10;
          pieces.push({ str: item.str, x0: x ?? 0, x1: (x ?? 0) + item.width, y: y ?? 0, size });
        }
        const text = pageText(pieces);
        pages.push(text);
        chars += text.length + 2;
        page.cleanup();
      }
      return { kind: "pdf" as const, pages: doc.numPages, ...capped(pages.join("\n\n").trim()) };
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

/** One table cell's Markdown: one line, `|` escaped. */
function cellText(content: string): string {
  return content
    .replace(/\s*\n+\s*/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
}

/**
 * The Markdown of the HTML mammoth makes of a DOCX (docs/documents.md "Extraction"): headings
 * as `#`, lists as `-` / `1.`, tables as GitHub pipe tables (the first row as the header,
 * each cell on one line), images dropped (their data URIs are not text).
 */
async function htmlToMarkdown(html: string): Promise<string> {
  const TurndownService = (await import("turndown")).default;
  const td = new TurndownService({ headingStyle: "atx", bulletListMarker: "-", codeBlockStyle: "fenced", emDelimiter: "*" });
  td.remove(["img", "script", "style"]);
  // The reader is a model or a person, not a Markdown renderer: "1." or "*" in a paragraph stays as written.
  td.escape = (text: string) => text;
  td.addRule("tableCell", { filter: ["th", "td"], replacement: (content) => ` ${cellText(content)} |` });
  td.addRule("tableRow", {
    filter: "tr",
    replacement: (content, node) => {
      const row = `|${content}\n`;
      const parent = node.parentNode as { firstElementChild?: unknown; nodeName?: string } | null;
      const table = parent?.nodeName === "TABLE" ? parent : (node.parentNode?.parentNode as typeof parent);
      const first = (table as { querySelector?: (s: string) => unknown } | null)?.querySelector?.("tr") === node;
      if (!first) return row;
      const cells = (node as HTMLTableRowElement).cells?.length ?? 1;
      return `${row}|${" --- |".repeat(Math.max(1, cells))}\n`;
    },
  });
  td.addRule("tableSection", { filter: ["thead", "tbody", "tfoot"], replacement: (content) => content });
  td.addRule("table", { filter: "table", replacement: (content) => `\n\n${content.trim()}\n\n` });
  return td
    .turndown(html)
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/**
 * The text of a DOCX as Markdown (mammoth `convertToHtml`, then {@link htmlToMarkdown}), so
 * headings, lists and tables stay readable, after checking the sizes its zip directory
 * declares.
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
  const work = (async () => {
    try {
      // Images become nothing (not their bytes as data URIs): only the text is kept.
      const { value } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) }, { convertImage: mammoth.images.imgElement(async () => ({ src: "" })) });
      return { kind: "docx" as const, pages: null, ...capped(await htmlToMarkdown(value)) };
    } catch (err) {
      throw refused(name, `the DOCX's text cannot be extracted (${String((err as Error)?.message ?? err).slice(0, 200)}).`);
    }
  })();
  return withDeadline(work, timeoutMs, name, () => undefined);
}
