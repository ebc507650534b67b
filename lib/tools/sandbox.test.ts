import { execFileSync } from "node:child_process";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { isInside, MAX_PATH_CHARS, resolveInWorkspace, splitWorkspacePath } from "./sandbox";

let base: string;
let ws: string;
let outside: string;

beforeAll(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "phyl-sandbox-")));
  ws = path.join(base, "ws");
  outside = path.join(base, "outside");
  await fs.mkdir(path.join(ws, "docs", "deep"), { recursive: true });
  await fs.mkdir(path.join(ws, "sub"), { recursive: true });
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, "secret.txt"), "top secret");
  await fs.writeFile(path.join(ws, "docs", "a.txt"), "inside");
  await fs.writeFile(path.join(ws, "..foo"), "literal dots");
  // Links that leave the workspace.
  await fs.symlink(path.join(outside, "secret.txt"), path.join(ws, "escape-file"));
  await fs.symlink(outside, path.join(ws, "escape-dir"));
  await fs.symlink("../..", path.join(ws, "sub", "parent-link"));
  await fs.symlink("../outside", path.join(ws, "relative-escape"));
  await fs.symlink(path.join(outside, "not-yet-there.txt"), path.join(ws, "dangling"));
  await fs.symlink("/dev/null", path.join(ws, "devnull"));
  await fs.symlink("/etc", path.join(ws, "abs-etc"));
  await fs.symlink("loop-b", path.join(ws, "loop-a"));
  await fs.symlink("loop-a", path.join(ws, "loop-b"));
  await fs.symlink(base, path.join(ws, "docs", "deep", "up"));
  // Links that stay inside.
  await fs.symlink("docs", path.join(ws, "inside-dir-link"));
  await fs.symlink("docs/a.txt", path.join(ws, "inside-file-link"));
  await fs.symlink(".", path.join(ws, "self"));
  await fs.symlink(ws, path.join(base, "ws-link"));
  // A special file inside the workspace.
  execFileSync("mkfifo", [path.join(ws, "fifo")]);
});

afterAll(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

/** Traversal and escape attempts; every one must be refused with "sandbox_violation". */
const escapes: [string, string][] = [
  ["empty path", ""],
  ["blank path", "   "],
  ["parent", ".."],
  ["parent with slash", "../"],
  ["two parents", "../.."],
  ["parent then file", "../outside/secret.txt"],
  ["deep parents to /etc", "../../../../../../etc/passwd"],
  ["inner parents", "a/../../b"],
  ["inner parents, deeper", "a/b/../../../c"],
  ["dot then parent", "./.."],
  ["parent after real dir", "docs/../.."],
  ["parent even when it would stay inside", "docs/../docs/a.txt"],
  ["backslash parents", "..\\.."],
  ["backslash parent file", "..\\outside\\secret.txt"],
  ["backslash inner parents", "a\\..\\..\\b"],
  ["mixed separators", "docs/..\\..\\outside"],
  ["trailing-space parent", ".. /outside"],
  ["triple dot", ".../outside"],
  ["posix absolute", "/etc/passwd"],
  ["root", "/"],
  ["double-slash absolute", "//etc/passwd"],
  ["device /dev/null", "/dev/null"],
  ["device /dev/zero", "/dev/zero"],
  ["procfs", "/proc/self/environ"],
  ["absolute path to the workspace itself", "/tmp"],
  ["windows drive", "C:\\Windows"],
  ["windows drive file", "C:\\Windows\\System32\\drivers\\etc\\hosts"],
  ["windows drive, forward slashes", "c:/windows/win.ini"],
  ["bare drive", "C:"],
  ["drive-relative", "D:relative"],
  ["UNC share", "\\\\server\\share"],
  ["UNC device namespace", "\\\\?\\C:\\Windows"],
  ["backslash-rooted", "\\etc\\passwd"],
  ["encoded parent", "%2e%2e/outside/secret.txt"],
  ["encoded parent and slash", "%2e%2e%2foutside"],
  ["encoded slash", "..%2foutside"],
  ["upper-case encoded backslash", "%2E%2E%5Coutside"],
  ["double-encoded parent", "%252e%252e/outside"],
  ["encoded absolute", "%2fetc%2fpasswd"],
  ["fullwidth dots", "\uff0e\uff0e/outside"],
  ["two-dot leader", "\u2025/outside"],
  ["NUL inside", "a\u0000b"],
  ["NUL extension trick", "docs/a.txt\u0000.png"],
  ["only NUL", "\u0000"],
  ["newline", "docs\n/a.txt"],
  ["too long", "a".repeat(MAX_PATH_CHARS + 1)],
  ["too many segments", "a/".repeat(600)],
  ["long parent chain", `x/${"../".repeat(400)}`],
  ["symlink to a file outside", "escape-file"],
  ["symlink to a dir outside", "escape-dir"],
  ["file beneath a symlinked dir outside", "escape-dir/secret.txt"],
  ["new file beneath a symlinked dir outside", "escape-dir/new.txt"],
  ["symlinked parent (../..)", "sub/parent-link/outside/secret.txt"],
  ["symlinked parent itself", "sub/parent-link"],
  ["relative symlink outside", "relative-escape/secret.txt"],
  ["dangling symlink pointing outside", "dangling"],
  ["symlink to /dev/null", "devnull"],
  ["symlink to /etc", "abs-etc/passwd"],
  ["symlink loop", "loop-a"],
  ["nested symlink to the parent of the workspace", "docs/deep/up/outside/secret.txt"],
  ["inside link then escape", "inside-dir-link/deep/up/outside"],
  ["FIFO inside the workspace", "fifo"],
  ["FIFO through a link inside", "self/fifo"],
];

describe("resolveInWorkspace refusals", () => {
  it("has a corpus of at least 50 attempts", () => {
    expect(escapes.length).toBeGreaterThanOrEqual(50);
  });

  it.each(escapes)("refuses %s", async (_label, attempt) => {
    const err = await resolveInWorkspace(ws, attempt).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: "forbidden", reason: "sandbox_violation" });
    expect((err as AppError).message).toMatch(/^Path ".*" is refused: .+\.$/s);
  });

  it.each(escapes)("refuses %s with mustExist too", async (_label, attempt) => {
    await expect(resolveInWorkspace(ws, attempt, { mustExist: true })).rejects.toMatchObject({ reason: "sandbox_violation" });
  });

  it("refuses non-string input", async () => {
    await expect(resolveInWorkspace(ws, undefined as unknown as string)).rejects.toMatchObject({ reason: "sandbox_violation" });
  });

  it("says why in the message", async () => {
    await expect(resolveInWorkspace(ws, "../x")).rejects.toThrow(/"\.\.\/x".*"\.\." segment/);
    await expect(resolveInWorkspace(ws, "/etc/passwd")).rejects.toThrow(/absolute path/);
    await expect(resolveInWorkspace(ws, "escape-dir/secret.txt")).rejects.toThrow(/outside the workspace/);
    await expect(resolveInWorkspace(ws, "fifo")).rejects.toThrow(/device, FIFO or socket/);
  });
});

describe("resolveInWorkspace accepted paths", () => {
  it.each([
    [".", ""],
    ["./", ""],
    ["docs", "docs"],
    ["docs/a.txt", "docs/a.txt"],
    ["./docs//a.txt", "docs/a.txt"],
    ["docs\\a.txt", "docs/a.txt"],
    ["docs/deep", "docs/deep"],
    ["new/deep/file.txt", "new/deep/file.txt"],
    ["..foo", "..foo"],
    ["a..b/c", "a..b/c"],
    ["100%", "100%"],
    ["inside-dir-link/a.txt", "docs/a.txt"],
    ["inside-file-link", "docs/a.txt"],
    ["self/self/docs/a.txt", "docs/a.txt"],
    ["inside-dir-link/new/file.txt", "docs/new/file.txt"],
  ])("resolves %j inside the workspace", async (rel, expected) => {
    expect(await resolveInWorkspace(ws, rel)).toBe(path.join(ws, expected));
  });

  it("follows a workspace root that is itself a symlink", async () => {
    expect(await resolveInWorkspace(path.join(base, "ws-link"), "docs/a.txt")).toBe(path.join(ws, "docs", "a.txt"));
  });

  it("accepts a path of exactly the maximum length", async () => {
    const rel = [..."bbbbb"]
      .map((c) => c.repeat(200))
      .join("/")
      .concat("/", "c".repeat(19));
    expect(rel.length).toBe(MAX_PATH_CHARS);
    expect(await resolveInWorkspace(ws, rel)).toBe(path.join(ws, ...rel.split("/")));
  });

  it("throws not_found for a missing path when mustExist", async () => {
    await expect(resolveInWorkspace(ws, "docs/missing.txt", { mustExist: true })).rejects.toMatchObject({ code: "not_found", reason: "not_found" });
  });

  it("throws workspace_missing when the root does not exist", async () => {
    await expect(resolveInWorkspace(path.join(base, "nope"), "a.txt")).rejects.toMatchObject({ reason: "workspace_missing" });
  });
});

describe("lexical helpers", () => {
  it("splits on both separators and drops dots", () => {
    expect(splitWorkspacePath("./a//b\\c/.")).toEqual(["a", "b", "c"]);
    expect(splitWorkspacePath(".")).toEqual([]);
  });

  it("does not treat a sibling with a common prefix as inside", () => {
    expect(isInside("/w/ws", "/w/ws")).toBe(true);
    expect(isInside("/w/ws", "/w/ws/a")).toBe(true);
    expect(isInside("/w/ws", "/w/ws/..foo")).toBe(true);
    expect(isInside("/w/ws", "/w/ws2")).toBe(false);
    expect(isInside("/w/ws", "/w")).toBe(false);
  });
});
