import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolDefinition } from "./gateway";
import { JsPool } from "./js-pool";
import { builtinTools } from "./registry";
import { createRunJavascript, MAX_LOG_LINE_CHARS, MAX_LOG_LINES, runJavascript } from "./run-javascript";

let ws: string;
beforeAll(async () => {
  ws = await fs.mkdtemp(path.join(os.tmpdir(), "phyl-js-"));
});
afterAll(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

/** Roomy deadline for ordinary scripts (no flakes on a busy machine); the timeout test uses a short one. */
const fast = createRunJavascript({ timeoutMs: 3_000 });
const short = createRunJavascript({ timeoutMs: 300 });
const run = (input: unknown, tool = fast) => runToolDefinition(tool, input, { workspaceDir: ws, maxOutputChars: 1_000_000 });
const out = async (input: unknown) => {
  const r = await run(input);
  expect(r.status, r.output).toBe("success");
  return JSON.parse(r.output) as { result: unknown; logs: string[]; durationMs: number };
};

describe("run_javascript", () => {
  it("is a registered built-in without side effects", () => {
    expect(builtinTools.run_javascript).toBe(runJavascript);
    expect(runJavascript).toMatchObject({ sideEffect: false, permission: "user" });
  });

  it("returns the value of the last expression as JSON", async () => {
    expect((await out({ code: "const xs = [3, 1, 2]; xs.sort(); ({ sum: xs.reduce((a, b) => a + b), xs })" })).result).toEqual({ sum: 6, xs: [1, 2, 3] });
    expect((await out({ code: "'text'" })).result).toBe("text");
    expect((await out({ code: "let x = 1" })).result).toBeNull();
    expect((await out({ code: "(() => 1)" })).result).toBeNull();
    expect((await out({ code: "[1, undefined, NaN]" })).result).toEqual([1, null, null]);
  });

  it("gives the script a frozen input", async () => {
    const r = await out({ code: "input.items.map((i) => i * 2)", input: { items: [1, 2] } });
    expect(r.result).toEqual([2, 4]);
    expect((await out({ code: "input.items.push(3); 1", input: { items: [1] } }).catch(() => null))?.result ?? "threw").toBe("threw");
    expect((await out({ code: "typeof input" })).result).toBe("object");
    expect((await out({ code: "input" })).result).toBeNull();
  });

  it("awaits a promise result", async () => {
    expect((await out({ code: "(async () => { const v = await Promise.resolve(20); return v + 1 })()" })).result).toBe(21);
    expect((await out({ code: "Promise.all([1, Promise.resolve(2)])" })).result).toEqual([1, 2]);
  });

  it("captures console output in order", async () => {
    const r = await out({ code: "console.log('a', 1, { b: 2 }); console.warn('careful'); console.error(new Error('x').message); console.info([1]); 0" });
    expect(r.logs).toEqual(['a 1 {"b":2}', "[warn] careful", "[error] x", "[1]"]);
  });

  it("caps console output at 200 lines of 1,000 chars", async () => {
    const r = await out({ code: "for (let i = 0; i < 1000; i++) console.log('y'.repeat(5000)); 0" });
    expect(r.logs).toHaveLength(MAX_LOG_LINES);
    expect(r.logs.at(-1)).toBe("[… 801 more console lines not shown]");
    expect(r.logs[0]).toHaveLength(MAX_LOG_LINE_CHARS + 1);
  });

  it("reports JavaScript errors with their name, message and position", async () => {
    const thrown = await run({ code: "const a = 1;\nnull.x" });
    expect(thrown).toMatchObject({ status: "error", errorCode: "js_error" });
    expect(thrown.output).toMatch(/^JavaScript error: TypeError: cannot read property 'x' of null \(line:column 2:\d+\)$/);
    const syntax = await run({ code: "let = ;" });
    expect(syntax.errorCode).toBe("js_error");
    expect(syntax.output).toContain("SyntaxError");
    const custom = await run({ code: "class MyError extends Error { constructor(m) { super(m); this.name = 'MyError' } }; throw new MyError('boom')" });
    expect(custom.output).toContain("MyError: boom");
    const rejected = await run({ code: "Promise.reject(new RangeError('nope'))" });
    expect(rejected).toMatchObject({ errorCode: "js_error" });
    expect(rejected.output).toContain("RangeError: nope");
  });

  it("refuses a result that is not JSON", async () => {
    const r = await run({ code: "10n ** 20n" });
    expect(r.errorCode).toBe("js_error");
    expect(r.output).toMatch(/not JSON-serialisable.*return plain data/);
  });

  it("stops a long computation at the deadline", async () => {
    const r = await run({ code: "let i = 0; while (true) i++" }, short);
    expect(r.errorCode).toBe("js_timeout");
    expect(r.output).toContain("longer than 300 ms");
    expect(r.durationMs).toBeLessThan(3000);
  });

  it("stops a script past its memory limit with the default 32 MB", async () => {
    const r = await run({ code: "const keep = []; for (;;) keep.push('z'.repeat(1024) + keep.length)" }, runJavascript);
    expect(r.errorCode).toBe("js_memory_limit");
    expect(r.output).toContain("more than 32 MB");
  });

  it("runs each call in a fresh sandbox", async () => {
    await out({ code: "globalThis.leak = 1; Object.prototype.polluted = true; 0" });
    expect((await out({ code: "[typeof leak, ({}).polluted === undefined]" })).result).toEqual(["undefined", true]);
  });

  it("runs off the event loop: timers keep firing while a script loops until its deadline", async () => {
    let ticks = 0;
    const interval = setInterval(() => ticks++, 20);
    try {
      const r = await run({ code: "for (;;) {}" }, createRunJavascript({ timeoutMs: 1_000 }));
      expect(r.errorCode).toBe("js_timeout");
    } finally {
      clearInterval(interval);
    }
    expect(ticks).toBeGreaterThan(15);
  });

  it("stops a script at its deadline even when the interrupt handler cannot, by ending its thread", async () => {
    const pool = new JsPool({ size: 1, maxQueued: 0, interrupt: false });
    try {
      const tool = createRunJavascript({ timeoutMs: 300, pool });
      const r = await run({ code: "while (true) {}" }, tool);
      expect(r).toMatchObject({ status: "error", errorCode: "js_timeout" });
      expect(r.output).toContain("longer than 300 ms");
      expect(JSON.parse((await run({ code: "6 * 7" }, tool)).output).result).toBe(42);
    } finally {
      await pool.close();
    }
  });

  it("answers js_busy when every sandbox thread is taken and the queue is full", async () => {
    const pool = new JsPool({ size: 1, maxQueued: 0 });
    try {
      const tool = createRunJavascript({ timeoutMs: 500, pool });
      const looping = run({ code: "while (true) {}" }, tool);
      const refused = await run({ code: "1" }, tool);
      expect(refused).toMatchObject({ status: "error", errorCode: "js_busy" });
      expect(refused.output).toMatch(/try again in a few seconds/);
      expect((await looping).errorCode).toBe("js_timeout");
    } finally {
      await pool.close();
    }
  });

  it("validates its input", async () => {
    expect((await run({ code: "" })).errorCode).toBe("invalid_input");
    expect((await run({ code: "1".repeat(100_001) })).errorCode).toBe("invalid_input");
    expect((await run({ code: "1", input: () => 1 })).errorCode).toBe("invalid_input");
  });
});
