import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { ensureWorkspace, workspaceDirFor } from "./workspace";

/** The demo library's sample files (docs/library.md "The demo workspace's library"). */
const sampleDir = path.join(process.cwd(), "templates", "library");
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

  it.each(["", "..", ".", "../other", "a/b", "a\\b", "a b", "a.b", "t\u0000", "é", "a".repeat(65), "/abs"])("rejects thread id %j", (id) => {
    const call = () => workspaceDirFor(base, id);
    expect(call).toThrow(AppError);
    expect(call).toThrow(expect.objectContaining({ code: "bad_request", reason: "invalid_thread_id" }));
  });

  it("accepts a 64-char id", () => {
    expect(workspaceDirFor(base, "a".repeat(64))).toBe(path.join(base, "a".repeat(64)));
  });
});

describe("ensureWorkspace", () => {
  it("creates the base and an empty workspace: no file is copied into a new thread", async () => {
    const dir = await ensureWorkspace(path.join(base, "workspaces"), "t1");
    expect(dir).toBe(path.join(base, "workspaces", "t1"));
    expect(await fs.readdir(dir)).toEqual([]);
    expect((await fs.stat(dir)).mode & 0o777).toBe(0o700);
  });

  it("keeps what a later call finds", async () => {
    const dir = await ensureWorkspace(base, "t2");
    await fs.writeFile(path.join(dir, "notes.md"), "edited");
    expect(await ensureWorkspace(base, "t2")).toBe(dir);
    expect(await fs.readdir(dir)).toEqual(["notes.md"]);
    expect(await fs.readFile(path.join(dir, "notes.md"), "utf8")).toBe("edited");
  });

  it("calls at the same time (steps side by side) all get the same folder, and nothing else is left", async () => {
    const root = path.join(base, "ws");
    const dirs = await Promise.all(Array.from({ length: 8 }, () => ensureWorkspace(root, "t9")));
    expect(new Set(dirs)).toEqual(new Set([path.join(root, "t9")]));
    expect(await fs.readdir(root)).toEqual(["t9"]);
  });

  it("leaves a directory that already existed as it was", async () => {
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

describe("the demo library's sample files", () => {
  it("are non-trivial text files", async () => {
    const notes = await fs.readFile(path.join(sampleDir, "notes.md"), "utf8");
    const lines = notes.trimEnd().split("\n").length;
    expect(lines).toBeGreaterThanOrEqual(25);
    expect(lines).toBeLessThanOrEqual(40);
    const release = await fs.readFile(path.join(sampleDir, "release-notes.md"), "utf8");
    expect(release).toContain("0.1.0");
    expect(release).toContain("0.2.0");
  });
});
