import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Where the run service's rows and jobs may be reached (docs/architecture.md#the-run-store):
 * RunEvent rows only through the run store, a job dispatched only inside lib/runs, and the
 * event vocabulary (lib/events) below the engine.
 * Tests are left out: they read the rows they check.
 */

const root = path.resolve(__dirname, "../..");

/** Every .ts/.tsx source file (no tests) under `dir`, relative to the repository. */
function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...sources(rel));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".conformance.ts")) out.push(rel);
  }
  return out;
}

const files = [...sources("lib"), ...sources("app")];
const using = (pattern: RegExp) => files.filter((f) => pattern.test(readFileSync(path.join(root, f), "utf8"))).sort();

/**
 * The repository paths a source file imports (static `from "…"` and dynamic `import("…")`),
 * relative ones resolved against its folder and `@/…` against the root; packages left out.
 */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(root, file), "utf8");
  const specs = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*)"([^"]+)"/g)].map((m) => m[1] ?? "");
  return specs.flatMap((s) => {
    if (s.startsWith("@/")) return [s.slice(2)];
    if (s.startsWith(".")) return [path.posix.normalize(path.posix.join(path.posix.dirname(file), s))];
    return [];
  });
}

/** The source files under `dir` importing anything under `target` (both repository folders), each with those imports. */
const importing = (dir: string, target: string) =>
  sources(dir).flatMap((f) => {
    const hits = importsOf(f).filter((i) => i === target || i.startsWith(`${target}/`));
    return hits.length > 0 ? [`${f} -> ${hits.join(", ")}`] : [];
  });

describe("run service boundaries", () => {
  it("RunEvent rows are read and written only by the run store", () => {
    expect(using(/\.runEvent\./)).toEqual(["lib/runs/store-prisma.ts"]);
  });

  it("the event vocabulary lives in lib/events, which imports nothing from lib/engine", () => {
    expect(sources("lib/events").filter((f) => /from "\.\.\/engine\//.test(readFileSync(path.join(root, f), "utf8")))).toEqual([]);
  });

  it("the graph sits below the run service: lib/engine imports nothing from lib/runs", () => {
    expect(importing("lib/engine", "lib/runs")).toEqual([]);
  });

  it("the event vocabulary sits below the run service: lib/events imports nothing from lib/runs", () => {
    expect(importing("lib/events", "lib/runs")).toEqual([]);
  });

  it("the LangGraph-compatible API sits above the run service: lib/runs, lib/engine and lib/events import nothing from lib/langgraph-api", () => {
    expect(["lib/runs", "lib/engine", "lib/events"].flatMap((dir) => importing(dir, "lib/langgraph-api"))).toEqual([]);
  });

  it("recovery reaches runs, jobs and leases through the run store, not the database", () => {
    expect(readFileSync(path.join(root, "lib/runs/worker.ts"), "utf8").match(/\b(?:db|tx)\.(?:run|runJob|thread)\.|\$transaction|\.\.\/db\/lease/g) ?? []).toEqual([]);
  });

  it("no caller outside lib/runs dispatches a job", () => {
    expect(using(/\bdispatchRun\b/).filter((f) => !f.startsWith("lib/runs/"))).toEqual([]);
  });
});
