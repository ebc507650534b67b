import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTool } from "./gateway";

// The mounted workspace library as the file tools see it (docs/library.md "Mounting").
let base: string;
let ws: string;
let lib: string;
const run = (name: string, input: unknown, mounted = true) => runTool(name, input, { workspaceDir: ws, ...(mounted ? { libraryDir: lib } : {}) });

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "phyl-overlay-")));
  ws = path.join(base, "ws");
  lib = path.join(base, ".library", "w1", "files");
  await fs.mkdir(ws, { recursive: true });
  await fs.mkdir(lib, { recursive: true });
  await fs.writeFile(path.join(lib, "policy.md"), "# Policy\nRefunds within 30 days.\n");
  await fs.writeFile(path.join(lib, "shared.md"), "library version\n");
  await fs.writeFile(path.join(ws, "shared.md"), "thread version\n");
  await fs.writeFile(path.join(ws, "own.md"), "mine\n");
  await fs.mkdir(path.join(base, "outside"));
  await fs.writeFile(path.join(base, "outside", "secret.txt"), "top secret");
  await fs.symlink(path.join(base, "outside", "secret.txt"), path.join(lib, "escape.md"));
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe("the mounted library", () => {
  it("read_file reads a library file the thread has not, and the thread's own copy wins", async () => {
    expect(JSON.parse((await run("read_file", { path: "policy.md" })).output)).toEqual({ path: "policy.md", content: "# Policy\nRefunds within 30 days.\n" });
    expect(JSON.parse((await run("read_file", { path: "shared.md" })).output).content).toBe("thread version\n");
    // Not mounted: the library is invisible.
    expect(await run("read_file", { path: "policy.md" }, false)).toMatchObject({ status: "error", errorCode: "not_found" });
  });

  it("list_files shows the union, library-only files marked read-only", async () => {
    expect(JSON.parse((await run("list_files", {})).output)).toEqual([
      { name: "own.md", type: "file", sizeBytes: 5 },
      { name: "policy.md", type: "file", sizeBytes: 33, readOnly: true },
      { name: "shared.md", type: "file", sizeBytes: 15 },
    ]);
  });

  it("write_file to a library name writes the thread's copy; the library never changes", async () => {
    expect(await run("write_file", { path: "policy.md", content: "edited" })).toMatchObject({ status: "success" });
    expect(await fs.readFile(path.join(ws, "policy.md"), "utf8")).toBe("edited");
    expect(await fs.readFile(path.join(lib, "policy.md"), "utf8")).toBe("# Policy\nRefunds within 30 days.\n");
    expect(JSON.parse((await run("read_file", { path: "policy.md" })).output).content).toBe("edited");
  });

  it("delete_file refuses a library-only file and deletes only the thread's own copy", async () => {
    const refused = await run("delete_file", { path: "policy.md" });
    expect(refused).toMatchObject({ status: "error", errorCode: "read_only_library_file" });
    expect(refused.output).toContain("read-only library file");
    expect(await fs.readFile(path.join(lib, "policy.md"), "utf8")).toContain("Refunds");
    expect(await run("delete_file", { path: "shared.md" })).toMatchObject({ status: "success" });
    expect(await fs.readFile(path.join(lib, "shared.md"), "utf8")).toBe("library version\n");
    expect(JSON.parse((await run("read_file", { path: "shared.md" })).output).content).toBe("library version\n");
    expect(await run("delete_file", { path: "nope.md" })).toMatchObject({ status: "error", errorCode: "not_found" });
  });

  it("keeps the sandbox in the library: links out and .. are refused, no host path is shown", async () => {
    const link = await run("read_file", { path: "escape.md" });
    expect(link).toMatchObject({ status: "error", errorCode: "sandbox_violation" });
    expect(link.output).not.toContain(base);
    expect(await run("read_file", { path: "../../ws/own.md" })).toMatchObject({ status: "error", errorCode: "sandbox_violation" });
    expect(JSON.parse((await run("list_files", {})).output).map((e: { name: string }) => e.name)).not.toContain("escape.md");
  });

  it("works when the workspace has no library folder yet", async () => {
    await fs.rm(path.join(base, ".library"), { recursive: true });
    expect(JSON.parse((await run("list_files", {})).output)).toHaveLength(2);
    expect(await run("read_file", { path: "policy.md" })).toMatchObject({ status: "error", errorCode: "not_found" });
  });
});
