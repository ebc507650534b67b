import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { ensureWorkspace, workspaceDirFor } from "./workspace";

const seedDir = path.join(process.cwd(), "templates", "workspace-files");
let base: string;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "phyl-ws-")));
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe("workspaceDirFor", () => {
  it("puts the thread's workspace under the base dir", () => {
    expect(workspaceDirFor(base, "thread_01-AB")).toBe(path.join(base, "thread_01-AB"));
    expect(path.isAbsolute(workspaceDirFor("relative/base", "t1"))).toBe(true);
  });

  it.each(["", "..", ".", "../other", "a/b", "a\\b", "a b", "a.b", "t\u0000", "é", "a".repeat(65), "/abs"])(
    "rejects thread id %j",
    (id) => {
      const call = () => workspaceDirFor(base, id);
      expect(call).toThrow(AppError);
      expect(call).toThrow(expect.objectContaining({ code: "bad_request", reason: "invalid_thread_id" }));
    },
  );

  it("accepts a 64-char id", () => {
    expect(workspaceDirFor(base, "a".repeat(64))).toBe(path.join(base, "a".repeat(64)));
  });
});

describe("ensureWorkspace", () => {
  it("creates the base and the workspace and seeds the template files", async () => {
    const dir = await ensureWorkspace(path.join(base, "workspaces"), "t1");
    expect(dir).toBe(path.join(base, "workspaces", "t1"));
    const seeded = (await fs.readdir(dir)).sort();
    expect(seeded).toEqual(["README.md", "notes.md", "release-notes.md"]);
    for (const name of seeded) {
      expect(await fs.readFile(path.join(dir, name), "utf8")).toBe(await fs.readFile(path.join(seedDir, name), "utf8"));
    }
  });

  it("seeds only once, keeping later changes", async () => {
    const dir = await ensureWorkspace(base, "t2");
    await fs.writeFile(path.join(dir, "notes.md"), "edited");
    await fs.rm(path.join(dir, "README.md"));
    expect(await ensureWorkspace(base, "t2")).toBe(dir);
    expect(await fs.readFile(path.join(dir, "notes.md"), "utf8")).toBe("edited");
    expect((await fs.readdir(dir)).sort()).toEqual(["notes.md", "release-notes.md"]);
  });

  it("calls at the same time (steps side by side) each see the whole seed, and no staging folder is left", async () => {
    const root = path.join(base, "ws");
    // Every caller reads a seeded file as soon as its own call returns.
    const read = async () => fs.readFile(path.join(await ensureWorkspace(root, "t9"), "release-notes.md"), "utf8");
    const texts = await Promise.all(Array.from({ length: 8 }, read));
    expect(new Set(texts)).toEqual(new Set([await fs.readFile(path.join(seedDir, "release-notes.md"), "utf8")]));
    expect(await fs.readdir(root)).toEqual(["t9"]);
  });

  it("does not seed a directory that already existed", async () => {
    await fs.mkdir(path.join(base, "t3"));
    const dir = await ensureWorkspace(base, "t3");
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it("gives each thread its own workspace", async () => {
    const a = await ensureWorkspace(base, "ta");
    const b = await ensureWorkspace(base, "tb");
    await fs.writeFile(path.join(a, "only-a.txt"), "a");
    expect(await fs.readdir(b)).not.toContain("only-a.txt");
  });

  it("rejects a bad thread id without touching the disk", async () => {
    await expect(ensureWorkspace(base, "../escape")).rejects.toMatchObject({ reason: "invalid_thread_id" });
    expect(await fs.readdir(base)).toEqual([]);
  });

  it("refuses a workspace path that is a file", async () => {
    await fs.writeFile(path.join(base, "t4"), "not a dir");
    await expect(ensureWorkspace(base, "t4")).rejects.toMatchObject({ reason: "workspace_unavailable" });
  });
});

describe("seed files", () => {
  it("are non-trivial text files", async () => {
    const notes = await fs.readFile(path.join(seedDir, "notes.md"), "utf8");
    const lines = notes.trimEnd().split("\n").length;
    expect(lines).toBeGreaterThanOrEqual(25);
    expect(lines).toBeLessThanOrEqual(40);
    const release = await fs.readFile(path.join(seedDir, "release-notes.md"), "utf8");
    expect(release).toContain("0.1.0");
    expect(release).toContain("0.2.0");
  });
});
