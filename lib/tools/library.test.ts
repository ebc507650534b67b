import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Document, Packer, Paragraph } from "docx";
import { PDFDocument } from "pdf-lib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addLibraryFiles, deleteLibraryFile, detectKind, type LibraryAuditEntry, libraryFilesDirFor, libraryName, libraryRootFor, listLibrary, MAX_LIBRARY_FILES } from "./library";

// The workspace library on disk (docs/library.md): names, kinds from content, limits, audit.
let base: string;
const text = (s: string) => new TextEncoder().encode(s);

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "phyl-library-")));
});
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe("workspace library", () => {
  it("lives beside the thread workspaces under a name no thread id can have", () => {
    expect(libraryRootFor(base, "ws_1")).toBe(path.join(base, ".library", "ws_1"));
    expect(libraryFilesDirFor(base, "ws_1")).toBe(path.join(base, ".library", "ws_1", "files"));
    expect(() => libraryRootFor(base, "../x")).toThrow(/Workspace id/);
  });

  it("takes names by the sandbox's rules, one segment, not hidden", () => {
    expect(libraryName("notes.md")).toBe("notes.md");
    for (const bad of ["../x.md", "a/b.md", "/etc/passwd", "x\u0000.md", ".env", "%2e%2e", "", "C:\\x"]) expect(() => libraryName(bad), bad).toThrow();
  });

  it("tells text, PDF and DOCX from the content, whatever the name; refuses binaries", async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage().drawText("Hello");
    const docx = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph("Hello")] }] }));
    expect(await detectKind("x.txt", await pdf.save())).toBe("pdf");
    expect(await detectKind("x.pdf", new Uint8Array(docx))).toBe("docx");
    expect(await detectKind("x.pdf", text("# plain text, é"))).toBe("text");
    expect(await detectKind("empty.md", new Uint8Array())).toBe("text");
    await expect(detectKind("x.md", Uint8Array.from([0xff, 0xfe, 0x00, 0x41]))).rejects.toMatchObject({ reason: "unsupported_file_type", status: 415 });
    await expect(detectKind("x.md", Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]))).rejects.toMatchObject({ status: 415 });
  });

  it("adds, replaces, lists and deletes files, each audited; limits are 413 / 422 and change nothing", async () => {
    const audited: LibraryAuditEntry[] = [];
    const audit = async (e: LibraryAuditEntry) => {
      audited.push(e);
    };
    await addLibraryFiles(
      base,
      "w1",
      [
        { name: "a.md", data: text("one") },
        { name: "b.md", data: text("two") },
      ],
      "u1",
      audit,
    );
    await addLibraryFiles(base, "w1", [{ name: "a.md", data: text("one again") }], "u1", audit);
    expect((await listLibrary(base, "w1")).map((f) => [f.name, f.sizeBytes, f.kind])).toEqual([
      ["a.md", 9, "text"],
      ["b.md", 3, "text"],
    ]);
    await expect(addLibraryFiles(base, "w1", [{ name: "c.md", data: new Uint8Array(10 * 1_048_576 + 1) }], "u1", audit)).rejects.toMatchObject({ reason: "file_too_large", status: 413 });
    const many = Array.from({ length: MAX_LIBRARY_FILES - 1 }, (_, i) => ({ name: `f${i}.md`, data: text("x") }));
    await expect(addLibraryFiles(base, "w1", many, "u1", audit)).rejects.toMatchObject({ reason: "too_many_files", status: 422 });
    await expect(addLibraryFiles(base, "w1", [], "u1", audit)).rejects.toMatchObject({ reason: "no_files", status: 422 });
    await expect(
      addLibraryFiles(
        base,
        "w1",
        [
          { name: "d.md", data: text("1") },
          { name: "d.md", data: text("2") },
        ],
        "u1",
        audit,
      ),
    ).rejects.toMatchObject({ reason: "duplicate_file_name" });
    expect(await listLibrary(base, "w1")).toHaveLength(2);
    await deleteLibraryFile(base, "w1", "b.md", "u2", audit);
    await expect(deleteLibraryFile(base, "w1", "b.md", "u2", audit)).rejects.toMatchObject({ status: 404 });
    await expect(deleteLibraryFile(base, "w1", "../w2/files/a.md", "u2", audit)).rejects.toMatchObject({ reason: "sandbox_violation" });
    expect(audited.map((e) => [e.action, e.name, e.actorId])).toEqual([
      ["library_upload", "a.md", "u1"],
      ["library_upload", "b.md", "u1"],
      ["library_upload", "a.md", "u1"],
      ["library_delete", "b.md", "u2"],
    ]);
    expect(await listLibrary(base, "w2")).toEqual([]);
  });
});
