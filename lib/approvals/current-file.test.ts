import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readCurrentFile } from "./current-file";

let base: string;
let ws: string;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "phyl-current-")));
  ws = path.join(base, "ws");
  await fs.mkdir(path.join(ws, "docs"), { recursive: true });
  await fs.writeFile(path.join(base, "secret.txt"), "top secret");
  await fs.writeFile(path.join(ws, "notes.md"), "# Notes\nhello\n");
  await fs.writeFile(path.join(ws, "image.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
  await fs.writeFile(path.join(ws, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  await fs.symlink(path.join(base, "secret.txt"), path.join(ws, "escape.txt"));
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe("readCurrentFile: the file a write would replace, as it is now", () => {
  it("a text file: its content and size in bytes", async () => {
    expect(await readCurrentFile(ws, "notes.md")).toEqual({ state: "text", content: "# Notes\nhello\n", sizeBytes: 14 });
  });

  it("no such file, or no workspace yet: missing (the write creates it)", async () => {
    expect(await readCurrentFile(ws, "summary.md")).toEqual({ state: "missing" });
    expect(await readCurrentFile(ws, "new/dir/file.md")).toEqual({ state: "missing" });
    expect(await readCurrentFile(path.join(base, "never-created"), "notes.md")).toEqual({ state: "missing" });
  });

  it("binary and non-UTF-8 files are named as such, without their bytes", async () => {
    expect(await readCurrentFile(ws, "image.png")).toEqual({ state: "binary", sizeBytes: 6 });
    expect(await readCurrentFile(ws, "latin1.txt")).toEqual({ state: "binary", sizeBytes: 4 });
  });

  it("a file over the limit: its size only", async () => {
    expect(await readCurrentFile(ws, "notes.md", 10)).toEqual({ state: "too_large", sizeBytes: 14, limitBytes: 10 });
  });

  it("a folder is a directory; paths the sandbox refuses are never read", async () => {
    expect(await readCurrentFile(ws, "docs")).toEqual({ state: "directory" });
    for (const p of ["../secret.txt", "escape.txt", "/etc/passwd", "x".repeat(1000), `docs/${"y".repeat(300)}/z.md`]) {
      const out = await readCurrentFile(ws, p);
      expect(out.state).toBe("refused");
      expect(JSON.stringify(out)).not.toContain("top secret");
    }
  });
});
