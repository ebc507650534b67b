import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { type Client, lastPart, readStream, signIn } from "./client";
import { makeDocx, makeDocxWithTable, makeEncryptedDocx, makeEncryptedPdf, makePdf, makeScannedPdf, makeTwoColumnPdf, type RawPart, rawMultipart } from "./documents";
import type { PendingApproval } from "./runs";
import { startServer, type TestServer } from "./server";

/**
 * Uploads, extraction and downloads over real HTTP against the built app (docs/documents.md):
 * a PDF and a DOCX made in the test are uploaded, read back as text by read_file and
 * summarized by the offline model; limits, types, names, roles and tenants are attacked.
 */

type ErrorBody = { error: { code: string; reason: string; message: string } };
type Uploaded = { path: string; sizeBytes: number; sha256: string; type: string; kind: string; pages: number | null };

const MB = 1_048_576;
const PDF_FACTS = [
  "Contract between Acme Corp and Globex.",
  "The license fee is 48000 EUR per year.",
  "Payment is due within 30 days of the invoice.",
  "Either party may end the contract with 90 days notice.",
];
const DOCX_FACTS = ["# Q3 review", "Revenue grew 18 percent in the third quarter.", "- Dana ships the billing export by October 3.", "The Berlin office opens in November."];

describe("uploads over HTTP", () => {
  let s: TestServer;
  let alice: Client;
  let bob: Client;
  let carol: Client;
  let victor: Client;
  let pdf: Uint8Array;
  let docx: Uint8Array;

  beforeAll(async () => {
    s = await startServer({ UPLOAD_MAX_FILE_BYTES: String(2 * MB), UPLOAD_MAX_WORKSPACE_BYTES: String(5 * MB), UPLOAD_MAX_FILES: "8" });
    const [a, b, c, v] = s.users;
    if (!a || !b || !c || !v) throw new Error("users");
    [alice, bob, carol, victor] = await Promise.all([signIn(s.url, a.email, a.password), signIn(s.url, b.email, b.password), signIn(s.url, c.email, c.password), signIn(s.url, v.email, v.password)]);
    pdf = await makePdf(PDF_FACTS);
    docx = await makeDocx(DOCX_FACTS);
  }, 120_000);
  afterAll(async () => s?.stop());

  const newThread = async (c: Client = alice, task = "Summarize contract.pdf into summary.md") => {
    const res = await c.post("/api/threads", { flowId: s.users[0]?.flowId, task });
    expect(res.status).toBe(201);
    return ((await res.json()) as { threadId: string }).threadId;
  };
  /** Uploads through FormData, as a browser page does (same-origin). */
  const upload = (c: Client, threadId: string, files: { name: string; bytes: Uint8Array | string }[]) => {
    const form = new FormData();
    for (const f of files) form.append("file", new Blob([typeof f.bytes === "string" ? f.bytes : Buffer.from(f.bytes)]), f.name);
    return c.fetch(`/api/threads/${threadId}/files`, { method: "POST", body: form, headers: { origin: s.url } });
  };
  const uploadRaw = (c: Client, threadId: string, parts: RawPart[]) => {
    const { body, contentType } = rawMultipart(parts);
    return c.fetch(`/api/threads/${threadId}/files`, { method: "POST", body: new Uint8Array(body), headers: { origin: s.url, "content-type": contentType } });
  };
  const reason = async (res: Response) => ((await res.json()) as ErrorBody).error;
  const readFile = async (c: Client, threadId: string, p: string) => {
    const res = await c.fetch(`/api/threads/${threadId}/workspace?path=${encodeURIComponent(p)}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { content: string }).content;
  };
  /** Runs `task`, approves the write, and returns summary.md. */
  const summarize = async (threadId: string, task: string) => {
    const started = await readStream(await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: task } }));
    const approval = lastPart(started, "data-approval") as PendingApproval | undefined;
    if (!approval) throw new Error(`no approval: ${JSON.stringify(started.map((c) => c.type))}`);
    const done = await readStream(await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "decision", decision: "approve", approvalId: approval.approvalId, token: approval.token } }));
    expect(lastPart(done, "data-run")?.status).toBe("completed");
    return readFile(alice, threadId, "summary.md");
  };

  it("a PDF and a DOCX are uploaded, read as their text, summarized, and downloaded as they were", async () => {
    const threadId = await newThread();
    const res = await upload(alice, threadId, [
      { name: "contract.pdf", bytes: pdf },
      { name: "q3.docx", bytes: docx },
    ]);
    expect(res.status).toBe(201);
    const { files } = (await res.json()) as { files: Uploaded[] };
    expect(files.map((f) => [f.path, f.kind, f.pages, f.sizeBytes])).toEqual([
      ["contract.pdf", "pdf", 1, pdf.byteLength],
      ["q3.docx", "docx", null, docx.byteLength],
    ]);
    const pdfText = await readFile(alice, threadId, "contract.pdf");
    expect(pdfText.startsWith('[Text extracted from the PDF "contract.pdf" (1 page)')).toBe(true);
    expect(pdfText).toContain("The license fee is 48000 EUR per year.");
    expect(await readFile(alice, threadId, "q3.docx")).toContain("Revenue grew 18 percent in the third quarter.");

    const summary = await summarize(threadId, "Summarize contract.pdf into summary.md");
    // Its points come from the PDF's text, and the extract's header line is not one of them.
    expect(summary).toMatch(/48000 EUR/);
    expect(summary).toMatch(/Acme Corp and Globex/);
    expect(summary).not.toMatch(/Text extracted/);

    const original = await alice.fetch(`/api/threads/${threadId}/files/contract.pdf`);
    expect(original.status).toBe(200);
    expect(original.headers.get("content-type")).toBe("application/pdf");
    expect(original.headers.get("content-disposition")).toMatch(/^attachment; filename="contract.pdf"/);
    expect(original.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await original.arrayBuffer()).equals(Buffer.from(pdf))).toBe(true);

    const zip = await alice.fetch(`/api/threads/${threadId}/files?format=zip`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    expect(Object.keys(entries).sort()).toEqual(expect.arrayContaining(["contract.pdf", "q3.docx", "summary.md", "notes.md"]));
    expect(Object.keys(entries).some((k) => k.includes(".phylactery"))).toBe(false);
    expect(Buffer.from(entries["q3.docx"] ?? []).equals(Buffer.from(docx))).toBe(true);

    // The audit trail names each upload with its hash.
    const db = createDb(s.dbUrl);
    const audit = await db.auditEntry.findMany({ where: { threadId, action: "file_uploaded" }, orderBy: { createdAt: "asc" } });
    await db.$disconnect();
    expect(audit.map((a) => JSON.parse(a.detail) as Uploaded)).toMatchObject([
      { path: "contract.pdf", sha256: files[0]?.sha256, type: "application/pdf" },
      { path: "q3.docx", sha256: files[1]?.sha256 },
    ]);
    expect(audit[0]?.actorId).toBe(s.users[0]?.id);
  }, 120_000);

  it("a DOCX is summarized from its text", async () => {
    const threadId = await newThread(alice, "Summarize contract.docx into summary.md");
    expect((await upload(alice, threadId, [{ name: "contract.docx", bytes: docx }])).status).toBe(201);
    const summary = await summarize(threadId, "Summarize contract.docx into summary.md");
    expect(summary).toMatch(/Revenue grew 18 percent/);
  }, 120_000);

  it("held-out documents: a name with spaces is summarized; a two-column PDF and a DOCX table read in order; encrypted and corrupt files are 422", async () => {
    const threadId = await newThread(alice, "Summarize Q3 report.pdf into summary.md");
    const left = ["Apples grow in the north.", "They ripen in September.", "Growers pick them by hand."];
    const right = ["Pears grow in the south.", "They ripen in August.", "Growers store them cold."];
    const table = await makeDocxWithTable(
      "Budget 2026",
      ["Hiring freeze", "New office"],
      [
        ["Quarter", "Revenue"],
        ["Q3", "48000 EUR"],
      ],
    );
    const res = await upload(alice, threadId, [
      { name: "Q3 report.pdf", bytes: pdf },
      { name: "two columns.pdf", bytes: await makeTwoColumnPdf(left, right) },
      { name: "budget.docx", bytes: table },
    ]);
    expect(res.status).toBe(201);
    expect(((await res.json()) as { files: (Uploaded & { note?: string })[] }).files.map((f) => [f.path, f.note])).toEqual([
      ["Q3 report.pdf", undefined],
      ["two columns.pdf", undefined],
      ["budget.docx", undefined],
    ]);
    expect(await readFile(alice, threadId, "two columns.pdf")).toContain([...left, "", ...right].join("\n"));
    expect(await readFile(alice, threadId, "budget.docx")).toContain("# Budget 2026\n\n-   Hiring freeze\n-   New office\n\n| Quarter | Revenue |\n| --- | --- |\n| Q3 | 48000 EUR |");
    // The offline model reads the whole name, unquoted or quoted.
    expect(await summarize(threadId, "Summarize Q3 report.pdf into summary.md")).toMatch(/48000 EUR/);

    const refused: [string, Uint8Array, number, string, RegExp][] = [
      ["locked.pdf", await makeEncryptedPdf(), 422, "pdf_encrypted", /^"locked.pdf": the PDF is encrypted \(password protected\)/],
      ["locked.docx", makeEncryptedDocx(), 422, "document_encrypted", /^file\[0\] \("locked.docx"\): the Office document is encrypted \(password protected\)/],
      ["broken.pdf", Buffer.from("%PDF-1.7\n1 0 obj garbage"), 422, "extraction_failed", /^"broken.pdf": the PDF cannot be read/],
    ];
    for (const [name, bytes, status, why, message] of refused) {
      const r = await upload(alice, threadId, [{ name, bytes }]);
      expect([name, r.status]).toEqual([name, status]);
      expect(await reason(r)).toMatchObject({ reason: why, message: expect.stringMatching(message) });
    }
  }, 120_000);

  it("a scanned PDF (no text layer) is kept, and the upload, read_file and the run say it has no text and no OCR; nothing is summarized", async () => {
    const task = "Summarize scan.pdf into summary.md";
    const threadId = await newThread(alice, task);
    const res = await upload(alice, threadId, [{ name: "scan.pdf", bytes: await makeScannedPdf(2) }]);
    expect(res.status).toBe(201);
    const noText = '"scan.pdf": the PDF has no text layer (its 2 pages hold no text: a scanned document, or images), and OCR (reading text from images) is not available, so its text cannot be read.';
    expect(((await res.json()) as { files: (Uploaded & { note?: string; extractedChars: number })[] }).files[0]).toMatchObject({
      kind: "pdf",
      pages: 2,
      extractedChars: 0,
      note: expect.stringContaining(noText),
    });
    const read = await alice.fetch(`/api/threads/${threadId}/workspace?path=scan.pdf`);
    expect(read.status).toBe(400);
    expect(await reason(read)).toMatchObject({ reason: "no_text_layer", message: expect.stringContaining(noText) });
    const chunks = await readStream(await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: task } }));
    const run = lastPart(chunks, "data-run") as { status: string } | undefined;
    // No approval is asked for a summary of nothing, and the run does not say it summarized.
    expect(lastPart(chunks, "data-approval")).toBeUndefined();
    // The read fails for good, so the user is asked how to proceed (docs/runs.md "Status vocabulary").
    expect(run?.status).toBe("awaiting_input");
    const said = JSON.stringify(chunks);
    expect(said).toContain("no text layer");
    expect(said).not.toMatch(/Summarized scan\.pdf/);
    expect((await alice.fetch(`/api/threads/${threadId}/workspace?path=summary.md`)).status).toBe(404);
  }, 120_000);

  it("the type comes from the content: a PDF named .txt is a PDF, an ELF named .pdf and bad UTF-8 are refused", async () => {
    const threadId = await newThread();
    const asTxt = await upload(alice, threadId, [{ name: "notes-copy.txt", bytes: pdf }]);
    expect(asTxt.status).toBe(201);
    expect(((await asTxt.json()) as { files: Uploaded[] }).files[0]).toMatchObject({ kind: "pdf", type: "application/pdf" });
    expect(await readFile(alice, threadId, "notes-copy.txt")).toContain("48000 EUR");
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)]);
    const refused = await upload(alice, threadId, [{ name: "report.pdf", bytes: elf }]);
    expect(refused.status).toBe(415);
    expect(await reason(refused)).toMatchObject({ reason: "type_refused", message: expect.stringContaining("file[0]") });
    const latin1 = await upload(alice, threadId, [{ name: "latin.txt", bytes: Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) }]);
    expect(latin1.status).toBe(415);
    const broken = await upload(alice, threadId, [{ name: "broken.pdf", bytes: Buffer.concat([Buffer.from(pdf).subarray(0, 300)]) }]);
    expect(broken.status).toBe(422);
    expect((await reason(broken)).reason).toBe("extraction_failed");
    expect(existsSync(path.join(s.workspacesDir, threadId, "report.pdf"))).toBe(false);
  }, 60_000);

  it("limits: 413 per file and per workspace, 422 for the count, a 100 MB stream refused; 0 bytes allowed", async () => {
    const threadId = await newThread();
    const big = await upload(alice, threadId, [{ name: "big.txt", bytes: "a".repeat(2 * MB + 1) }]);
    expect(big.status).toBe(413);
    expect(await reason(big)).toMatchObject({ reason: "file_too_large", message: expect.stringMatching(/file\[0\].*2 MB/) });
    const empty = await upload(alice, threadId, [{ name: "empty.txt", bytes: "" }]);
    expect(empty.status).toBe(201);
    expect(await readFile(alice, threadId, "empty.txt")).toBe("");
    const fill = await upload(
      alice,
      threadId,
      [1, 2].map((i) => ({ name: `fill-${i}.txt`, bytes: "b".repeat(2 * MB) })),
    );
    expect(fill.status).toBe(201);
    const full = await upload(alice, threadId, [{ name: "more.txt", bytes: "c".repeat(1.5 * MB) }]);
    expect(full.status).toBe(413);
    expect(await reason(full)).toMatchObject({ reason: "workspace_full", message: expect.stringContaining("5 MB") });
    // A new thread's workspace starts empty (the demo files are the library's and do not count): 3 files + 6 > 8.
    const many = await upload(
      alice,
      threadId,
      [1, 2, 3, 4, 5, 6].map((i) => ({ name: `n-${i}.txt`, bytes: "x" })),
    );
    expect(many.status).toBe(422);
    expect(await reason(many)).toMatchObject({ reason: "too_many_files", message: expect.stringContaining("8") });

    // 100 MB streamed in 1 MB chunks: refused with 413 once past the per-file cap.
    const { body: head } = rawMultipart([{ filename: "huge.txt", bytes: "" }]);
    const boundary = /^--(.*?)\r\n/.exec(head.toString())?.[1] ?? "";
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${s.url}/api/threads/${threadId}/files`, {
        method: "POST",
        headers: { cookie: alice.cookie(), origin: s.url, "content-type": `multipart/form-data; boundary=${boundary}` },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      const chunk = Buffer.alloc(MB, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 100) {
          sent++;
          const payload = sent === 1 ? Buffer.concat([Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="huge.txt"\r\n\r\n`), chunk]) : chunk;
          if (!req.write(payload)) return void req.once("drain", pump);
        }
        req.end(`\r\n--${boundary}--\r\n`);
      };
      pump();
    });
    expect(status).toBe(413);
    expect(existsSync(path.join(s.workspacesDir, threadId, "huge.txt"))).toBe(false);
  }, 120_000);

  it("names never leave the workspace: .., absolute, NUL, reserved, folders and symlinks are refused", async () => {
    const threadId = await newThread();
    const dir = path.join(s.workspacesDir, threadId);
    // Made in the workspace beforehand: a folder, and a symlink to a file outside.
    mkdirSync(path.join(dir, "folder"), { recursive: true });
    writeFileSync(path.join(s.dir, "outside.txt"), "outside");
    symlinkSync(path.join(s.dir, "outside.txt"), path.join(dir, "link.txt"));
    symlinkSync(s.dir, path.join(dir, "linkdir"));
    for (const name of [
      "../escape.txt",
      "../../etc/passwd",
      "/etc/passwd",
      "C:\\x.txt",
      "a\u0000b.txt",
      "%2e%2e/x.txt",
      "docs/../../x.txt",
      ".phylactery/extracts/contract.pdf.json",
      "folder",
      "link.txt",
      "linkdir/x.txt",
      ".",
    ]) {
      const res = await uploadRaw(alice, threadId, [{ filename: name, bytes: "pwned" }]);
      expect([name, res.status]).toEqual([name, 422]);
      expect((await reason(res)).reason).toBe("invalid_file_name");
    }
    expect((await uploadRaw(alice, threadId, [{ filename: "", bytes: "x" }])).status).toBe(422);
    expect((await uploadRaw(alice, threadId, [{ field: "other", bytes: "x" }])).status).toBe(422);
    expect(existsSync(path.join(s.workspacesDir, "escape.txt"))).toBe(false);
    expect(existsSync(path.join(s.dir, "x.txt"))).toBe(false);
    expect((await upload(alice, threadId, [{ name: "link.txt", bytes: "y" }])).status).toBe(422);
    // A sub-folder name is fine; the reserved folder cannot be downloaded.
    expect((await upload(alice, threadId, [{ name: "docs/spec.txt", bytes: "spec" }])).status).toBe(201);
    expect(await readFile(alice, threadId, "docs/spec.txt")).toBe("spec");
    expect((await alice.fetch(`/api/threads/${threadId}/files/..%2F..%2Fapp.db`)).status).toBeGreaterThanOrEqual(400);
    expect((await alice.fetch(`/api/threads/${threadId}/files/.phylactery/uploads`)).status).toBe(403);
    expect((await alice.fetch(`/api/threads/${threadId}/files/link.txt`)).status).toBe(403);
    const zip = unzipSync(new Uint8Array(await (await alice.fetch(`/api/threads/${threadId}/files?format=zip`)).arrayBuffer()));
    expect(Object.keys(zip)).not.toContain("link.txt");
    expect(Object.keys(zip).some((k) => k.startsWith("linkdir"))).toBe(false);
  }, 60_000);

  it("other accounts get 404, a viewer 403, an approver may upload; a cookie upload from no page is refused; a run in progress is 409", async () => {
    const threadId = await newThread();
    expect((await upload(alice, threadId, [{ name: "mine.txt", bytes: "secret plans" }])).status).toBe(201);
    expect((await upload(bob, threadId, [{ name: "x.txt", bytes: "x" }])).status).toBe(404);
    expect((await bob.fetch(`/api/threads/${threadId}/files/mine.txt`)).status).toBe(404);
    expect((await bob.fetch(`/api/threads/${threadId}/files?format=zip`)).status).toBe(404);
    const viewer = await upload(victor, threadId, [{ name: "v.txt", bytes: "x" }]);
    expect(viewer.status).toBe(403);
    expect((await victor.fetch(`/api/threads/${threadId}/files/mine.txt`)).status).toBe(200);
    expect((await upload(carol, threadId, [{ name: "c.txt", bytes: "from carol" }])).status).toBe(201);
    const { body, contentType } = rawMultipart([{ filename: "nopage.txt", bytes: "x" }]);
    const noOrigin = await alice.fetch(`/api/threads/${threadId}/files`, { method: "POST", body: new Uint8Array(body), headers: { "content-type": contentType } });
    expect(noOrigin.status).toBe(403);
    const foreign = await alice.fetch(`/api/threads/${threadId}/files`, { method: "POST", body: new Uint8Array(body), headers: { "content-type": contentType, origin: "https://evil.example" } });
    expect(foreign.status).toBe(403);

    const db = createDb(s.dbUrl);
    await db.thread.update({ where: { id: threadId }, data: { leaseRunId: "run-in-progress" } });
    const busy = await upload(alice, threadId, [{ name: "late.txt", bytes: "x" }]);
    await db.thread.update({ where: { id: threadId }, data: { leaseRunId: null } });
    await db.$disconnect();
    expect(busy.status).toBe(409);
    expect((await reason(busy)).reason).toBe("run_in_progress");
  }, 60_000);

  it("erasing the thread removes its uploads and their extracts", async () => {
    const threadId = await newThread();
    expect((await upload(alice, threadId, [{ name: "contract.pdf", bytes: pdf }])).status).toBe(201);
    const dir = path.join(s.workspacesDir, threadId);
    expect(existsSync(path.join(dir, ".phylactery", "extracts", "contract.pdf.json"))).toBe(true);
    expect((await alice.fetch(`/api/threads/${threadId}`, { method: "DELETE", headers: { origin: s.url } })).status).toBe(200);
    expect(existsSync(dir)).toBe(false);
  }, 60_000);
});
