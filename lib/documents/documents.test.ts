import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { makeDocx, makeDocxWithTable, makeEncryptedDocx, makeEncryptedPdf, makePdf, makeScannedPdf, makeTwoColumnPdf, rawMultipart } from "../../tests/http/documents";
import { isAppError } from "../errors";
import { splitWorkspacePath } from "../tools/sandbox";
import { detectType } from "./detect";
import { extractDocx, extractPdf, noTextLayer } from "./extract";
import { readUploadParts } from "./multipart";
import { readableText, sha256Hex, storeExtract } from "./readable";
import { workspaceFiles } from "./walk";

const limits = { maxFileBytes: 1000, maxTotalBytes: 1500, maxFiles: 3 };

/** A body stream that hands out `buf` in chunks of `size` bytes. */
function chunked(buf: Buffer, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= buf.length) return c.close();
      c.enqueue(new Uint8Array(buf.subarray(at, at + size)));
      at += size;
    },
  });
}

async function refusal(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    if (isAppError(err)) return { status: err.status, reason: err.reason, message: err.message };
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("readUploadParts", () => {
  it("reads file parts whatever the chunk size, ignores other fields", async () => {
    const { body, contentType } = rawMultipart([
      { filename: "a.txt", bytes: "hello\r\n--not-a-boundary" },
      { field: "note", bytes: "ignored" },
      { filename: "b.bin", bytes: Buffer.from([0, 1, 2, 13, 10]) },
    ]);
    for (const size of [1, 7, 64, body.length]) {
      const parts = await readUploadParts(chunked(body, size), contentType, limits);
      expect(parts.map((p) => [p.index, p.filename, p.bytes.toString("latin1")])).toEqual([
        [0, "a.txt", "hello\r\n--not-a-boundary"],
        [1, "b.bin", "\u0000\u0001\u0002\r\n"],
      ]);
    }
  });

  it("refuses over the per-file and total caps with 413, too many files with 422, and non-multipart with 415", async () => {
    const one = rawMultipart([{ filename: "a.txt", bytes: "x".repeat(1001) }]);
    expect(await refusal(readUploadParts(chunked(one.body, 100), one.contentType, limits))).toMatchObject({ status: 413, reason: "file_too_large" });
    const two = rawMultipart([
      { filename: "a.txt", bytes: "x".repeat(800) },
      { filename: "b.txt", bytes: "x".repeat(800) },
    ]);
    expect(await refusal(readUploadParts(chunked(two.body, 100), two.contentType, limits))).toMatchObject({ status: 413, reason: "workspace_full" });
    const four = rawMultipart([1, 2, 3, 4].map((i) => ({ filename: `${i}.txt`, bytes: "x" })));
    expect(await refusal(readUploadParts(chunked(four.body, 100), four.contentType, limits))).toMatchObject({ status: 422, reason: "too_many_files" });
    expect(await refusal(readUploadParts(chunked(Buffer.from("{}"), 10), "application/json", limits))).toMatchObject({ status: 415, reason: "not_multipart" });
    const none = rawMultipart([{ field: "other", bytes: "x" }]);
    expect(await refusal(readUploadParts(chunked(none.body, 100), none.contentType, limits))).toMatchObject({ status: 422, reason: "no_files" });
    const cut = rawMultipart([{ filename: "a.txt", bytes: "abc" }]);
    expect(await refusal(readUploadParts(chunked(cut.body.subarray(0, cut.body.length - 20), 5), cut.contentType, limits))).toMatchObject({ status: 400, reason: "bad_multipart" });
  });

  it("names the caller's limits in its refusals (the library's per-request cap is body_too_large)", async () => {
    const library = {
      ...limits,
      fileLimitName: "the library's limit per file",
      totalRefusal: { reason: "body_too_large", holds: "one request may carry", limitName: "the library's limit per request" },
      filesScope: "per request",
    };
    const one = rawMultipart([{ filename: "a.txt", bytes: "x".repeat(1001) }]);
    expect(await refusal(readUploadParts(chunked(one.body, 100), one.contentType, library))).toMatchObject({
      status: 413,
      reason: "file_too_large",
      message: expect.stringContaining("(the library's limit per file)"),
    });
    const two = rawMultipart([
      { filename: "a.txt", bytes: "x".repeat(800) },
      { filename: "b.txt", bytes: "x".repeat(800) },
    ]);
    expect(await refusal(readUploadParts(chunked(two.body, 100), two.contentType, library))).toMatchObject({
      status: 413,
      reason: "body_too_large",
      message: expect.stringContaining("one request may carry at most"),
    });
    const four = rawMultipart([1, 2, 3, 4].map((i) => ({ filename: `${i}.txt`, bytes: "x" })));
    expect(await refusal(readUploadParts(chunked(four.body, 100), four.contentType, library))).toMatchObject({ status: 422, reason: "too_many_files", message: "file: at most 3 files per request." });
  });

  it("stops holding bytes past the cap: a 50 MB body is read with at most the cap kept", async () => {
    const head = rawMultipart([{ filename: "big.txt", bytes: "" }]);
    const boundary = /boundary=(.*)$/.exec(head.contentType)?.[1] ?? "";
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent === 0) c.enqueue(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.txt"\r\n\r\n`));
        if (sent >= 50) return c.close();
        sent++;
        c.enqueue(new Uint8Array(1_048_576));
      },
    });
    expect(await refusal(readUploadParts(body, head.contentType, { ...limits, maxFileBytes: 2_000_000, maxTotalBytes: 3_000_000 }))).toMatchObject({ status: 413, reason: "file_too_large" });
  });
});

describe("detectType", () => {
  it("judges from content, not names", async () => {
    expect(await detectType(await makePdf(["x"]), "file[0]", "notes.txt")).toEqual({ kind: "pdf", mime: "application/pdf" });
    expect((await detectType(await makeDocx(["x"]), "file[0]", "x.pdf")).kind).toBe("docx");
    expect((await detectType(Buffer.from("héllo"), "file[0]", "a.md")).kind).toBe("text");
    expect((await detectType(Buffer.alloc(0), "file[0]", "empty")).kind).toBe("text");
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(64)]);
    expect(await refusal(detectType(elf, "file[1]", "report.pdf"))).toMatchObject({ status: 415, reason: "type_refused", message: expect.stringContaining("file[1]") });
    const exe = Buffer.concat([Buffer.from("MZ"), Buffer.alloc(200)]);
    expect(await refusal(detectType(exe, "file[0]", "a.pdf"))).toMatchObject({ status: 415 });
    expect(await refusal(detectType(Buffer.from([0xff, 0xfe, 0x41]), "file[0]", "a.txt"))).toMatchObject({ status: 415 });
  });
});

describe("extraction and readableText", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("extracts PDF pages and DOCX paragraphs; broken documents give 422", async () => {
    const pdf = await extractPdf(await makePdf(["First page line", ...Array.from({ length: 20 }, (_, i) => `line ${i}`)]), "a.pdf");
    expect(pdf).toMatchObject({ kind: "pdf", pages: 2, truncated: false });
    expect(pdf.text).toContain("First page line");
    const docx = await extractDocx(await makeDocx(["Alpha paragraph", "Beta paragraph"]), "a.docx");
    expect(docx.text).toContain("Beta paragraph");
    expect(await refusal(extractPdf(Buffer.from("%PDF-1.7\ngarbage"), "b.pdf"))).toMatchObject({ status: 422, reason: "extraction_failed" });
    expect(await refusal(extractDocx(Buffer.from("PK\u0003\u0004garbage"), "b.docx"))).toMatchObject({ status: 422, reason: "extraction_failed" });
  });

  it("keeps each column of a two-column PDF together, in reading order, under its title", async () => {
    const left = ["Apples grow in the north.", "They ripen in September.", "Growers pick them by hand.", "Cider uses the sour ones."];
    const right = ["Pears grow in the south.", "They ripen in August.", "Growers store them cold."];
    const { text } = await extractPdf(await makeTwoColumnPdf(left, right, "Fruit report 2026"), "two.pdf");
    expect(text).toBe(["Fruit report 2026", ...left, "", ...right].join("\n"));
    // A one-column page reads line by line.
    expect((await extractPdf(await makePdf(["First line.", "Second line."]), "one.pdf")).text).toBe("First line.\nSecond line.");
  });

  it("says a scanned PDF has no text layer and that OCR is not available, at read_file", async () => {
    const scan = await extractPdf(await makeScannedPdf(2), "scan.pdf");
    expect(scan).toMatchObject({ kind: "pdf", pages: 2 });
    expect(noTextLayer("scan.pdf", scan)).toBe(
      '"scan.pdf": the PDF has no text layer (its 2 pages hold no text: a scanned document, or images), and OCR (reading text from images) is not available, so its text cannot be read. Upload a PDF with a text layer, or the text itself.',
    );
    dir = mkdtempSync(path.join(tmpdir(), "docs-"));
    writeFileSync(path.join(dir, "Q3 scan.pdf"), await makeScannedPdf());
    expect(await refusal(readableText(dir, "Q3 scan.pdf"))).toEqual({
      status: 422,
      reason: "no_text_layer",
      message: expect.stringMatching(/^"Q3 scan.pdf": the PDF has no text layer \(its 1 page holds no text.*OCR \(reading text from images\) is not available/),
    });
  });

  it("reads a DOCX's headings, lists and tables as Markdown: one row a line, cells separated", async () => {
    const bytes = await makeDocxWithTable(
      "Budget 2026",
      ["Hiring freeze", "New office"],
      [
        ["Quarter", "Revenue"],
        ["Q3", "48000 EUR"],
        ["Q4", "52 | 000"],
      ],
    );
    const { text } = await extractDocx(bytes, "budget.docx");
    expect(text.split("\n").filter((l) => l.trim())).toEqual([
      "# Budget 2026",
      "-   Hiring freeze",
      "-   New office",
      "| Quarter | Revenue |",
      "| --- | --- |",
      "| Q3 | 48000 EUR |",
      "| Q4 | 52 \\| 000 |",
      "After the table.",
    ]);
  });

  it("refuses an encrypted PDF or DOCX and a corrupt one with a 422 naming the file and why", async () => {
    expect(await refusal(extractPdf(await makeEncryptedPdf(), "locked.pdf"))).toEqual({
      status: 422,
      reason: "pdf_encrypted",
      message: '"locked.pdf": the PDF is encrypted (password protected); upload an unprotected copy.',
    });
    expect(await refusal(detectType(makeEncryptedDocx(), "file[0]", "locked.docx"))).toEqual({
      status: 422,
      reason: "document_encrypted",
      message: 'file[0] ("locked.docx"): the Office document is encrypted (password protected), so its text cannot be read; upload an unprotected copy.',
    });
    const docx = await makeDocx(["Alpha paragraph"]);
    expect(await refusal(extractDocx(docx.subarray(0, Math.floor(docx.byteLength / 2)), "cut.docx"))).toMatchObject({
      status: 422,
      reason: "extraction_failed",
      message: expect.stringMatching(/^"cut.docx": the DOCX cannot be read/),
    });
  });

  it("reads a PDF as its extract (kept or made now), text as is, and refuses binary and reserved paths", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "docs-"));
    const bytes = await makePdf(["The fee is 48000 EUR."]);
    writeFileSync(path.join(dir, "c.pdf"), bytes);
    writeFileSync(path.join(dir, "n.md"), "# Notes\n%PDF- inside text");
    writeFileSync(path.join(dir, "bin.dat"), Buffer.from([1, 0, 2]));
    const fresh = await readableText(dir, "c.pdf");
    expect(fresh.kind).toBe("pdf");
    expect(fresh.content).toMatch(/^\[Text extracted from the PDF "c.pdf" \(1 page\)/);
    expect(fresh.content).toContain("48000 EUR");
    await storeExtract(dir, "c.pdf", { kind: "pdf", pages: 1, truncated: false, text: "KEPT TEXT", sha256: sha256Hex(bytes) });
    expect((await readableText(dir, "c.pdf")).content).toContain("KEPT TEXT");
    // A stale extract (the file changed) is not used.
    await storeExtract(dir, "c.pdf", { kind: "pdf", pages: 1, truncated: false, text: "STALE", sha256: "0".repeat(64) });
    expect((await readableText(dir, "c.pdf")).content).toContain("48000 EUR");
    expect(await readableText(dir, "n.md")).toEqual({ path: "n.md", content: "# Notes\n%PDF- inside text", kind: "text" });
    expect(await refusal(readableText(dir, "bin.dat"))).toMatchObject({ reason: "binary_file" });
    expect(await refusal(readableText(dir, ".phylactery/extracts/c.pdf.json"))).toMatchObject({ status: 403, reason: "sandbox_violation" });
    expect(await refusal(readableText(dir, ".PHYLACTERY./extracts/c.pdf.json"))).toMatchObject({ status: 403 });
  });

  it("walks regular files only, never the reserved folder or symlinks", async () => {
    dir = mkdtempSync(path.join(tmpdir(), "docs-"));
    mkdirSync(path.join(dir, "sub"));
    writeFileSync(path.join(dir, "sub", "a.txt"), "a");
    writeFileSync(path.join(dir, "b.txt"), "bb");
    mkdirSync(path.join(dir, ".phylactery", "extracts"), { recursive: true });
    writeFileSync(path.join(dir, ".phylactery", "extracts", "x.json"), "{}");
    symlinkSync("/etc/passwd", path.join(dir, "link"));
    symlinkSync(tmpdir(), path.join(dir, "linkdir"));
    expect((await workspaceFiles(dir)).map((f) => [f.path, f.sizeBytes])).toEqual([
      ["b.txt", 2],
      ["sub/a.txt", 1],
    ]);
    expect(() => splitWorkspacePath("a/.phylactery/b")).toThrow(/reserved/);
  });
});
