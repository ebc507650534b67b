import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runTool } from "./gateway";
import { PASSAGE_MAX_LINES, passagesOf } from "./search-files";

// search_files (docs/library.md "search_files"): passages with citations whose lines hold the fact.
let base: string;
let ws: string;
let lib: string;

beforeEach(async () => {
  base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "phyl-search-")));
  ws = path.join(base, "ws");
  lib = path.join(base, "lib");
  await fs.mkdir(path.join(ws, "docs"), { recursive: true });
  await fs.mkdir(lib, { recursive: true });
  await fs.writeFile(
    path.join(ws, "notes.md"),
    ["# Team notes", "", "Standup moved to Tuesdays.", "Budget review next month.", "", "## Launch", "The launch date is March 14.", "Marketing owns the announcement."].join("\n"),
  );
  await fs.writeFile(path.join(ws, "docs", "plan.md"), "Phase one: research.\n\nPhase two: the migration to PostgreSQL happens in June.\n");
  await fs.writeFile(path.join(lib, "handbook.md"), "# Handbook\n\nExpense reports are due on the fifth business day.\n");
  await fs.writeFile(path.join(ws, "blob.bin"), Buffer.from([0, 1, 2, 0, 255]));
});

afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

type Hit = { file: string; lines: [number, number]; text: string };

async function search(input: Record<string, unknown>, libraryDir?: string): Promise<{ results: Hit[]; filesSearched: number; filesSkipped: number }> {
  const res = await runTool("search_files", input, { workspaceDir: ws, ...(libraryDir ? { libraryDir } : {}) });
  expect(res.status).toBe("success");
  return JSON.parse(res.output);
}

/** The cited lines, read back from the file through read_file (1-based, inclusive). */
async function cited(hit: Hit, libraryDir?: string): Promise<string> {
  const res = await runTool("read_file", { path: hit.file }, { workspaceDir: ws, ...(libraryDir ? { libraryDir } : {}) });
  const lines = (JSON.parse(res.output).content as string).split("\n");
  return lines.slice(hit.lines[0] - 1, hit.lines[1]).join("\n");
}

describe("search_files", () => {
  it("answers the passage that holds the fact, and its cited lines contain it", async () => {
    const out = await search({ query: "launch date" });
    const [top] = out.results;
    expect(top).toMatchObject({ file: "notes.md", lines: [6, 8] });
    expect(await cited(top as Hit)).toContain("The launch date is March 14.");
    expect(out.filesSkipped).toBe(1); // blob.bin is binary
  });

  it("searches sub-folders and the mounted library, citing the library file", async () => {
    const migration = (await search({ query: "postgresql migration" })).results[0] as Hit;
    expect(migration).toMatchObject({ file: "docs/plan.md", lines: [3, 3] });
    expect(await cited(migration)).toContain("June");
    expect((await search({ query: "expense reports" })).results).toEqual([]);
    const expense = (await search({ query: "expense reports" }, lib)).results[0] as Hit;
    expect(expense).toMatchObject({ file: "handbook.md", lines: [3, 3] });
    expect(await cited(expense, lib)).toContain("Expense reports are due on the fifth business day.");
  });

  it("narrows to one file or folder, and bounds the answer", async () => {
    const only = await search({ query: "phase standup launch", path: "docs" });
    expect(only.results.every((r) => r.file === "docs/plan.md")).toBe(true);
    expect((await search({ query: "standup", path: "notes.md" })).results[0]).toMatchObject({ file: "notes.md", lines: [3, 4] });
    expect((await search({ query: "the a of", limit: 1 })).results.length).toBeLessThanOrEqual(1);
    const missing = await runTool("search_files", { query: "x", path: "nope.md" }, { workspaceDir: ws });
    expect(missing).toMatchObject({ status: "error", errorCode: "not_found" });
    expect(await runTool("search_files", { query: "x", path: "../outside" }, { workspaceDir: ws })).toMatchObject({ status: "error", errorCode: "sandbox_violation" });
  });

  it("cuts long blocks into passages of at most PASSAGE_MAX_LINES lines, numbered from 1", () => {
    const text = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join("\n");
    const passages = passagesOf("f.md", `\n${text}\n\nlast`);
    expect(passages.map((p) => p.lines)).toEqual([
      [2, 1 + PASSAGE_MAX_LINES],
      [2 + PASSAGE_MAX_LINES, 1 + 2 * PASSAGE_MAX_LINES],
      [2 + 2 * PASSAGE_MAX_LINES, 21],
      [23, 23],
    ]);
    expect(passages[0]?.text.split("\n")[0]).toBe("line 1");
    expect(passages[3]?.text).toBe("last");
  });
});
