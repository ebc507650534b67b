import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "../errors";
import { deleteFile, listFiles, MAX_FILE_BYTES, readFile, writeFile } from "./files";
import { reconcileTool, runTool, runToolDefinition } from "./gateway";
import { builtinTools, getTool, isSideEffectTool, toolCatalog } from "./registry";
import type { ToolDefinition } from "./types";

let base: string;
let ws: string;
const ctx = () => ({ workspaceDir: ws, signal: new AbortController().signal });
const run = (name: string, input: unknown, extra: { timeoutMs?: number; maxOutputChars?: number } = {}) => runTool(name, input, { workspaceDir: ws, ...extra });

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "phyl-files-")));
  ws = path.join(base, "ws");
  await fs.mkdir(path.join(ws, "docs"), { recursive: true });
  await fs.mkdir(path.join(base, "outside"));
  await fs.writeFile(path.join(base, "outside", "secret.txt"), "top secret");
  await fs.writeFile(path.join(ws, "notes.md"), "# Notes\nhello\n");
  await fs.writeFile(path.join(ws, "docs", "plan.md"), "plan");
  await fs.symlink(path.join(base, "outside"), path.join(ws, "escape"));
  await fs.symlink("notes.md", path.join(ws, "alias.md"));
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe("list_files", () => {
  it("lists the root by default, sorted, with types and sizes; hides links that leave", async () => {
    const out = await listFiles.run(listFiles.input.parse({}), ctx());
    expect(out).toEqual([
      { name: "alias.md", type: "file", sizeBytes: 14 },
      { name: "docs", type: "dir", sizeBytes: 0 },
      { name: "notes.md", type: "file", sizeBytes: 14 },
    ]);
  });

  it("lists a subdirectory through the gateway as JSON", async () => {
    const res = await run("list_files", { path: "docs" });
    expect(res).toMatchObject({ status: "success" });
    expect(JSON.parse(res.output)).toEqual([{ name: "plan.md", type: "file", sizeBytes: 4 }]);
    expect(res.sizeChars).toBe(res.output.length);
  });

  it("refuses a file, a missing dir and an escape", async () => {
    expect(await run("list_files", { path: "notes.md" })).toMatchObject({ status: "error", errorCode: "not_a_directory" });
    expect(await run("list_files", { path: "nope" })).toMatchObject({ status: "error", errorCode: "not_found" });
    expect(await run("list_files", { path: "escape" })).toMatchObject({ status: "error", errorCode: "sandbox_violation" });
    expect(await run("list_files", { path: "../" })).toMatchObject({ status: "error", errorCode: "sandbox_violation" });
  });
});

describe("read_file", () => {
  it("returns path and content", async () => {
    expect(await readFile.run({ path: "./docs//plan.md" }, ctx())).toEqual({ path: "docs/plan.md", content: "plan" });
    const res = await run("read_file", { path: "notes.md" });
    expect(res.status).toBe("success");
    expect(JSON.parse(res.output)).toEqual({ path: "notes.md", content: "# Notes\nhello\n" });
  });

  it("reads through a symlink that stays inside, reporting the real path", async () => {
    expect(await readFile.run({ path: "alias.md" }, ctx())).toEqual({ path: "notes.md", content: "# Notes\nhello\n" });
  });

  it("refuses files over 1 MB with a clear error", async () => {
    await fs.writeFile(path.join(ws, "big.txt"), "x".repeat(MAX_FILE_BYTES + 1));
    const res = await run("read_file", { path: "big.txt" });
    expect(res).toMatchObject({ status: "error", errorCode: "file_too_large" });
    expect(res.output).toContain("1048577 bytes");
    expect(res.output).toContain("1 MB");
  });

  it("reads a file of exactly 1 MB", async () => {
    await fs.writeFile(path.join(ws, "edge.txt"), "y".repeat(MAX_FILE_BYTES));
    expect((await readFile.run({ path: "edge.txt" }, ctx())).content).toHaveLength(MAX_FILE_BYTES);
  });

  it("refuses directories, missing files, binaries and escapes", async () => {
    await fs.writeFile(path.join(ws, "bin.dat"), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    expect(await run("read_file", { path: "docs" })).toMatchObject({ errorCode: "is_a_directory" });
    expect(await run("read_file", { path: "missing.md" })).toMatchObject({ errorCode: "not_found" });
    expect(await run("read_file", { path: "bin.dat" })).toMatchObject({ errorCode: "binary_file" });
    const escaped = await run("read_file", { path: "escape/secret.txt" });
    expect(escaped).toMatchObject({ status: "error", errorCode: "sandbox_violation" });
    expect(escaped.output).not.toContain("top secret");
    expect(escaped.output).not.toContain(base);
  });
});

describe("write_file", () => {
  it("creates parent folders and reports UTF-8 bytes written", async () => {
    const res = await run("write_file", { path: "out/deep/summary.md", content: "héllo ✓" });
    expect(res.status).toBe("success");
    expect(JSON.parse(res.output)).toEqual({ path: "out/deep/summary.md", bytesWritten: 10 });
    expect(await fs.readFile(path.join(ws, "out", "deep", "summary.md"), "utf8")).toBe("héllo ✓");
  });

  it("overwrites an existing file and writes an empty one", async () => {
    await writeFile.run({ path: "notes.md", content: "new" }, ctx());
    expect(await fs.readFile(path.join(ws, "notes.md"), "utf8")).toBe("new");
    expect(await writeFile.run({ path: "empty.txt", content: "" }, ctx())).toEqual({ path: "empty.txt", bytesWritten: 0 });
  });

  it("refuses content over 1 MB, naming the field", async () => {
    const res = await run("write_file", { path: "big.txt", content: "é".repeat(MAX_FILE_BYTES / 2 + 1) });
    expect(res).toMatchObject({ status: "error", errorCode: "invalid_input" });
    expect(res.output).toContain("content");
    await expect(fs.access(path.join(ws, "big.txt"))).rejects.toThrow();
  });

  it("never writes outside the workspace", async () => {
    for (const p of ["../evil.txt", "escape/evil.txt", "/tmp/evil.txt", "escape/new-dir/evil.txt"]) {
      expect(await run("write_file", { path: p, content: "x" })).toMatchObject({ status: "error", errorCode: "sandbox_violation" });
    }
    expect(await fs.readdir(path.join(base, "outside"))).toEqual(["secret.txt"]);
    expect(await fs.readdir(base)).toEqual(["outside", "ws"]);
  });

  it("refuses the root and directories", async () => {
    expect(await run("write_file", { path: ".", content: "x" })).toMatchObject({ errorCode: "is_a_directory" });
    expect(await run("write_file", { path: "docs", content: "x" })).toMatchObject({ errorCode: "is_a_directory" });
  });
});

describe("delete_file", () => {
  it("deletes a file", async () => {
    const res = await run("delete_file", { path: "docs/plan.md" });
    expect(JSON.parse(res.output)).toEqual({ path: "docs/plan.md", deleted: true });
    await expect(fs.access(path.join(ws, "docs", "plan.md"))).rejects.toThrow();
  });

  it("deletes a symlink itself, not the file it points to", async () => {
    expect(await deleteFile.run({ path: "alias.md" }, ctx())).toEqual({ path: "alias.md", deleted: true });
    expect(await fs.readFile(path.join(ws, "notes.md"), "utf8")).toBe("# Notes\nhello\n");
  });

  it("refuses directories, missing files and escapes", async () => {
    expect(await run("delete_file", { path: "docs" })).toMatchObject({ status: "error", errorCode: "is_a_directory" });
    expect(await run("delete_file", { path: "." })).toMatchObject({ status: "error", errorCode: "is_a_directory" });
    expect(await run("delete_file", { path: "gone.md" })).toMatchObject({ status: "error", errorCode: "not_found" });
    expect(await run("delete_file", { path: "escape/secret.txt" })).toMatchObject({ errorCode: "sandbox_violation" });
    expect(await run("delete_file", { path: "escape" })).toMatchObject({ errorCode: "sandbox_violation" });
    expect(await fs.readFile(path.join(base, "outside", "secret.txt"), "utf8")).toBe("top secret");
  });
});

describe("registry", () => {
  it("holds the four file tools with their flags among the built-ins", () => {
    const files = ["delete_file", "list_files", "read_file", "write_file"];
    expect(Object.keys(builtinTools)).toEqual(expect.arrayContaining([...files, "rehydrate"]));
    expect(
      toolCatalog()
        .filter((t) => files.includes(t.name))
        .map((t) => [t.name, t.sideEffect]),
    ).toEqual([
      ["delete_file", true],
      ["list_files", false],
      ["read_file", false],
      ["write_file", true],
    ]);
    for (const name of files) {
      expect(builtinTools[name]).toMatchObject({ timeoutMs: 30_000, permission: "user" });
      expect(builtinTools[name]?.description.length).toBeGreaterThan(20);
    }
  });

  it("looks tools up by name only", () => {
    expect(getTool("read_file")).toBe(readFile);
    expect(getTool("toString")).toBeUndefined();
    expect(getTool("__proto__")).toBeUndefined();
    expect(isSideEffectTool("write_file")).toBe(true);
    expect(isSideEffectTool("list_files")).toBe(false);
    expect(isSideEffectTool("no_such_tool")).toBe(true);
  });

  it("describes every input field for the LLM's JSON schema", () => {
    for (const t of [listFiles, readFile, writeFile, deleteFile] as ToolDefinition[]) {
      const schema = z.toJSONSchema(t.input, { io: "input" }) as { properties: Record<string, { description?: string }> };
      for (const [field, prop] of Object.entries(schema.properties)) {
        expect(prop.description, `${t.name}.${field}`).toBeTruthy();
      }
    }
  });
});

/** A fake tool for gateway tests; never registered in the built-ins. */
function fake<O>(run: (input: { n: number }, c: { signal: AbortSignal }) => Promise<O>, output: z.ZodType = z.any()): ToolDefinition {
  return {
    name: "fake",
    version: "0.0.0",
    description: "test tool",
    input: z.object({ n: z.number().int().describe("a number") }),
    output,
    timeoutMs: 30_000,
    permission: "user",
    sideEffect: false,
    run: run as ToolDefinition["run"],
  };
}

describe("gateway", () => {
  const opts = () => ({ workspaceDir: ws });

  it("reports an unknown tool", async () => {
    const res = await run("format_disk", {});
    expect(res).toMatchObject({ status: "error", errorCode: "unknown_tool" });
    expect(res.output).toContain("format_disk");
  });

  it("names the invalid field", async () => {
    const missing = await run("read_file", {});
    expect(missing).toMatchObject({ status: "error", errorCode: "invalid_input" });
    expect(missing.output).toMatch(/read_file.*path:/);
    const wrongType = await run("write_file", { path: "a.txt", content: 42 });
    expect(wrongType.output).toMatch(/content:/);
    expect(await run("read_file", "notes.md")).toMatchObject({ errorCode: "invalid_input" });
    expect(await run("read_file", { path: "" })).toMatchObject({ errorCode: "invalid_input" });
  });

  it("times out a slow tool and aborts its signal", async () => {
    let aborted = false;
    const slow = fake(
      (_i, c) =>
        new Promise((resolve) => {
          c.signal.addEventListener("abort", () => {
            aborted = true;
          });
          setTimeout(() => resolve("late"), 2_000);
        }),
    );
    const res = await runToolDefinition(slow, { n: 1 }, { ...opts(), timeoutMs: 50 });
    expect(res).toMatchObject({ status: "error", errorCode: "timeout" });
    expect(res.output).toContain("50 ms");
    expect(res.durationMs).toBeLessThan(1_000);
    expect(aborted).toBe(true);
  });

  it("does not let a longer option extend the tool's own limit", async () => {
    const slow = { ...fake(() => new Promise((r) => setTimeout(() => r("late"), 2_000))), timeoutMs: 30 };
    expect(await runToolDefinition(slow, { n: 1 }, { ...opts(), timeoutMs: 60_000 })).toMatchObject({ errorCode: "timeout" });
  });

  it("caps long output and marks the truncation", async () => {
    const chatty = fake(async () => "x".repeat(1_000));
    const res = await runToolDefinition(chatty, { n: 1 }, { ...opts(), maxOutputChars: 100 });
    expect(res.status).toBe("success");
    expect(res.sizeChars).toBe(1_000);
    expect(res.output.startsWith("x".repeat(100))).toBe(true);
    expect(res.output).not.toContain("x".repeat(101));
    expect(res.output).toContain("truncated");
    expect(res.output).toContain("100 of 1000");
  });

  it("caps a real tool's output with the default limit", async () => {
    await fs.writeFile(path.join(ws, "large.txt"), "z".repeat(300_000));
    const res = await run("read_file", { path: "large.txt" });
    expect(res.status).toBe("success");
    expect(res.sizeChars).toBeGreaterThan(300_000);
    expect(res.output.length).toBeLessThan(200_100);
    expect(res.output).toContain("truncated");
  });

  it("does not split a surrogate pair when capping", async () => {
    const res = await runToolDefinition(
      fake(async () => "a😀b"),
      { n: 1 },
      { ...opts(), maxOutputChars: 2 },
    );
    expect(res.output.startsWith("a\n")).toBe(true);
  });

  it("passes strings through and pretty-prints objects", async () => {
    expect(
      (
        await runToolDefinition(
          fake(async () => "plain"),
          { n: 1 },
          opts(),
        )
      ).output,
    ).toBe("plain");
    expect(
      (
        await runToolDefinition(
          fake(async (i) => ({ n: i.n })),
          { n: 2 },
          opts(),
        )
      ).output,
    ).toBe('{\n  "n": 2\n}');
  });

  it("turns bad output, AppErrors and other throws into error results", async () => {
    const bad = fake(async () => ({ wrong: true }), z.object({ ok: z.boolean() }));
    const badRes = await runToolDefinition(bad, { n: 1 }, opts());
    expect(badRes).toMatchObject({ status: "error", errorCode: "invalid_output" });
    expect(badRes.output).toContain("ok");
    const app = fake(async () => {
      throw new AppError("forbidden", "sandbox_violation", "nope");
    });
    expect(await runToolDefinition(app, { n: 1 }, opts())).toMatchObject({ status: "error", errorCode: "sandbox_violation", output: "nope" });
    const boom = fake(async () => {
      throw new Error(`failed in ${ws}/x`);
    });
    const boomRes = await runToolDefinition(boom, { n: 1 }, opts());
    expect(boomRes).toMatchObject({ status: "error", errorCode: "tool_error" });
    expect(boomRes.output).not.toContain(ws);
    const sync = fake(() => {
      throw new Error("sync throw");
    });
    expect(await runToolDefinition(sync, { n: 1 }, opts())).toMatchObject({ errorCode: "tool_error" });
  });
});

/** A call whose outcome is unknown after a crash (docs/durability.md "Side effects"). */
describe("reconcileTool", () => {
  const reconcile = (name: string, input: unknown) => reconcileTool(name, input, { workspaceDir: ws });

  it("write_file: the same content hash in the workspace says it happened, with the output the write would give", async () => {
    await fs.writeFile(path.join(ws, "summary.md"), "# Summary\n");
    expect(await reconcile("write_file", { path: "summary.md", content: "# Summary\n" })).toEqual({ kind: "happened", output: JSON.stringify({ path: "summary.md", bytesWritten: 10 }, null, 2) });
  });

  it("write_file: other content, or no file, says it did not: run it again", async () => {
    await fs.writeFile(path.join(ws, "summary.md"), "# Summ");
    expect(await reconcile("write_file", { path: "summary.md", content: "# Summary\n" })).toEqual({ kind: "retry", why: "not_happened" });
    expect(await reconcile("write_file", { path: "new/summary.md", content: "x" })).toEqual({ kind: "retry", why: "not_happened" });
  });

  it("delete_file: a file gone happened, a file still there did not", async () => {
    expect(await reconcile("delete_file", { path: "gone.md" })).toMatchObject({ kind: "happened" });
    expect(await reconcile("delete_file", { path: "notes.md" })).toEqual({ kind: "retry", why: "not_happened" });
  });

  it("an idempotent call runs again; a POST, an unknown tool or a refused input asks a person", async () => {
    expect(await reconcile("http_request", { url: "https://a.example/x", method: "PUT", body: "v" })).toEqual({ kind: "retry", why: "idempotent" });
    expect(await reconcile("http_request", { url: "https://a.example/x", method: "POST", body: "v" })).toEqual({ kind: "ask" });
    expect(await reconcile("send_email", { to: "x" })).toEqual({ kind: "ask" });
    expect(await reconcile("write_file", { path: 3 })).toEqual({ kind: "ask" });
  });

  it("a path outside the workspace is not observed: ask", async () => {
    expect(await reconcile("write_file", { path: "escape/secret.txt", content: "top secret" })).toEqual({ kind: "ask" });
  });
});
