import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/**
 * The pool's threads and the life of the process (docs/security.md "CPU isolation"): a
 * process that used run_javascript ends by itself once its work is done, and a process that
 * exits mid-script takes the script's thread with it.
 */

const dir = mkdtempSync(path.join(tmpdir(), "phyl-js-pool-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `body` as a TypeScript script (with `runJavascript` and `runToolDefinition` in scope); resolves its exit code, output and time. */
async function runScriptFile(body: string): Promise<{ code: number | null; out: string; ms: number }> {
  const file = path.join(dir, `script-${Math.random().toString(36).slice(2)}.ts`);
  const lib = path.resolve("lib/tools");
  writeFileSync(file, `import { runToolDefinition } from ${JSON.stringify(path.join(lib, "gateway"))};\nimport { runJavascript } from ${JSON.stringify(path.join(lib, "run-javascript"))};\n${body}\n`);
  const started = performance.now();
  const child = spawn(process.execPath, ["scripts/run-ts.mjs", file], { env: { ...process.env, LOG_LEVEL: "silent" }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout.on("data", (d) => {
    out += String(d);
  });
  child.stderr.on("data", (d) => {
    out += String(d);
  });
  const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(killer);
  return { code, out, ms: performance.now() - started };
}

describe("the pool's threads and the process", () => {
  it("lets a process end by itself after its scripts ran, without closing the pool", async () => {
    const r = await runScriptFile(`
      const a = await runToolDefinition(runJavascript, { code: "6 * 7" }, { workspaceDir: "/tmp" });
      console.log(JSON.parse(a.output).result);
      globalThis.setTimeout(() => {}, 10); // nothing else keeps the process alive
    `);
    expect(r.out.trim()).toBe("42");
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(25_000);
  }, 40_000);

  it("ends a script's thread with the process that exits while the script loops", async () => {
    const r = await runScriptFile(`
      void runToolDefinition(runJavascript, { code: "while (true) {}" }, { workspaceDir: "/tmp" });
      globalThis.setTimeout(() => { console.log("exiting"); process.exit(3); }, 1500);
    `);
    expect(r.out.trim()).toBe("exiting");
    expect(r.code).toBe(3);
    // The loop's deadline is 5 s: the process did not wait for it.
    expect(r.ms).toBeLessThan(4_500);
  }, 40_000);
});
