import { readdirSync, readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { JsPool, type JsPoolOptions, KILL_GRACE_MS } from "./js-pool";
import type { ScriptRequest } from "./js-worker.mjs";

/**
 * A script request with the tool's usual limits. A well-behaved script gets a roomy 10 s (it
 * ends in milliseconds, but starting a thread on a loaded 2-core machine took seconds); runaway
 * ones name their own deadline.
 */
const script = (code: string, timeoutMs = 10_000): ScriptRequest => ({
  code,
  inputJson: "null",
  timeoutMs,
  memoryBytes: 8 * 1024 * 1024,
  stackBytes: 256 * 1024,
  maxLogLines: 200,
  maxLogLineChars: 1_000,
});

const pools: JsPool[] = [];
const pool = (options: Partial<JsPoolOptions> = {}) => {
  const p = new JsPool({ size: 1, maxQueued: 4, ...options });
  pools.push(p);
  return p;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe("the run_javascript pool", () => {
  it("keeps the server's event loop ticking while a script loops forever", async () => {
    const p = pool();
    const ticks: number[] = [];
    const interval = setInterval(() => ticks.push(performance.now()), 10);
    try {
      const outcome = await p.run(script("while (true) {}", 1_500));
      expect(outcome).toEqual({ ok: false, failure: { kind: "timeout" } });
    } finally {
      clearInterval(interval);
    }
    // Run on the event loop, the loop would have held it for the whole 1.5 s deadline.
    const gaps = ticks.slice(1).map((t, i) => t - (ticks[i] as number));
    expect(ticks.length).toBeGreaterThan(40);
    expect(Math.max(...gaps)).toBeLessThan(500);
  });

  it("finishes a small script on another thread while a script loops forever", async () => {
    const p = pool({ size: 2 });
    let loopEnded = false;
    const looping = p.run(script("for (;;) {}", 6_000)).finally(() => {
      loopEnded = true;
    });
    const small = await p.run(script("6 * 7"));
    expect(small).toMatchObject({ ok: true, json: "42" });
    // It did not wait behind the loop: the loop is still running (its deadline is 6 s away).
    expect(loopEnded).toBe(false);
    expect(await looping).toEqual({ ok: false, failure: { kind: "timeout" } });
  }, 20_000);

  it("terminates a script that defeats the interrupt handler shortly after its deadline, and replaces its thread", async () => {
    const p = pool({ interrupt: false });
    expect(await p.run(script("1 + 1"))).toMatchObject({ ok: true, json: "2" });
    const started = performance.now();
    expect(await p.run(script("while (true) {}", 300))).toEqual({ ok: false, failure: { kind: "timeout" } });
    const took = performance.now() - started;
    expect(took).toBeGreaterThanOrEqual(300 + KILL_GRACE_MS - 20);
    expect(took).toBeLessThan(300 + KILL_GRACE_MS + 2_000);
    expect(p.stats().started).toBe(1);
    expect(await p.run(script("[1, 2].map((x) => x * 3)"))).toMatchObject({ ok: true, json: "[3,6]" });
    expect(p.stats().started).toBe(2);
  });

  it("refuses a script with js_busy when every thread is busy and the queue is full", async () => {
    const p = pool({ size: 1, maxQueued: 1 });
    const running = p.run(script("while (true) {}", 400));
    const queued = p.run(script("while (true) {}", 400));
    const refused = await p.run(script("1")).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "too_many_requests", reason: "js_busy", message: expect.stringMatching(/try again/) });
    expect(p.stats()).toMatchObject({ busy: 1, queued: 1 });
    // The queue drains: both loops end at their deadline, and the pool takes work again.
    expect(await running).toMatchObject({ failure: { kind: "timeout" } });
    expect(await queued).toMatchObject({ failure: { kind: "timeout" } });
    expect(await p.run(script("'again'"))).toMatchObject({ ok: true, json: '"again"' });
  });

  it("stops a running script when its caller gives up, and drops a waiting one", async () => {
    const p = pool({ interrupt: false });
    const controller = new AbortController();
    const running = p.run(script("while (true) {}", 60_000), controller.signal);
    const waiting = p.run(script("1"), controller.signal);
    const other = p.run(script("'still served'"));
    setTimeout(() => controller.abort(), 200);
    expect(await running).toEqual({ ok: false, failure: { kind: "timeout" } });
    await expect(waiting).rejects.toMatchObject({ reason: "aborted" });
    expect(await other).toMatchObject({ ok: true, json: '"still served"' });
    expect(p.stats()).toMatchObject({ busy: 0, queued: 0, started: 2 });
  });

  it("answers js_memory_limit when a thread dies of its heap limit, and replaces the thread", async () => {
    const p = pool({ resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 } });
    // The thrown objects fit the script's 32 MB; copied out to be reported, they do not fit the thread's 8 MB heap.
    const big = await p.run({ ...script("throw Array.from({ length: 2e5 }, (_, i) => ({ i }))", 5_000), memoryBytes: 32 * 1024 * 1024 });
    expect(big).toEqual({ ok: false, failure: { kind: "memory" } });
    expect(await p.run(script("'fine'"))).toMatchObject({ ok: true, json: '"fine"' });
    expect(p.stats().started).toBe(2);
  });

  it("runs scripts at a lower CPU priority than the event loop (Linux: nice 10 on the script's thread)", async () => {
    const nice = () => readdirSync("/proc/self/task").map((t) => Number(readFileSync(`/proc/self/task/${t}/stat`, "utf8").split(") ")[1]?.split(" ")[16]));
    const before = nice();
    const p = pool();
    const looping = p.run(script("for (;;) {}", 800));
    await new Promise((r) => setTimeout(r, 400));
    const during = nice();
    expect(during.filter((n) => n === 10).length).toBe(before.filter((n) => n === 10).length + 1);
    expect(readFileSync("/proc/self/stat", "utf8").split(") ")[1]?.split(" ")[16]).toBe("0");
    await looping;
  });

  it("keeps every call in a fresh sandbox though threads are reused", async () => {
    const p = pool();
    await p.run(script("globalThis.leak = 1; Object.prototype.polluted = true; 0"));
    expect(await p.run(script("[typeof leak, ({}).polluted === undefined]"))).toMatchObject({ ok: true, json: '["undefined",true]' });
    expect(p.stats().started).toBe(1);
  });
});
