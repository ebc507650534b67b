import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { setLogDestination } from "../log";
import { WorkerChild } from "./worker-child";

/**
 * The worker child's supervision (docs/durability.md "The worker child"), with real child
 * processes running fixtures in place of lib/runs/worker-main.ts: one that dies at once is
 * forked again with a doubling wait up to the cap, and a crash loop is logged (never a hot
 * loop); one that ignores SIGTERM is SIGKILLed after the grace. No timing is asserted: the
 * waits are read from the log lines.
 */
const fixture = (name: string) => path.join("tests", "fixtures", "worker-child", name);

describe("WorkerChild", () => {
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  const logLines = () => {
    const lines: { msg: string; level: number; restartInMs?: number; deathsInARow?: number; code?: number }[] = [];
    cleanups.push(setLogDestination({ write: (line: string) => void lines.push(JSON.parse(line)) }, { level: "info" }));
    return lines;
  };
  const until = async (what: string, ok: () => boolean) => {
    for (let i = 0; i < 600 && !ok(); i++) await new Promise((r) => setTimeout(r, 50));
    if (!ok()) throw new Error(`timed out waiting for ${what}`);
  };

  it("a child that keeps dying is forked again after 20, 40, 80, 80 ms (the cap), and from the third death in a row it is logged as a crash loop", async () => {
    const lines = logLines();
    const wc = new WorkerChild({ entry: fixture("dies.ts"), restartMs: 20, maxRestartMs: 80, stableMs: 600_000 });
    cleanups.push(() => wc.stop(1_000));
    wc.start();
    const deaths = () => lines.filter((l) => l.restartInMs !== undefined);
    await until("four deaths", () => deaths().length >= 4);
    await wc.stop(1_000);
    const four = deaths().slice(0, 4);
    expect(four.map((l) => l.restartInMs)).toEqual([20, 40, 80, 80]);
    expect(four.map((l) => l.code)).toEqual([3, 3, 3, 3]);
    expect(four.map((l) => l.deathsInARow)).toEqual([1, 2, 3, 4]);
    expect(four.map((l) => l.level)).toEqual([40, 40, 50, 50]);
    expect(four[2]?.msg).toMatch(/crash loop/);
    expect(wc.status().up).toBe(false);
    expect(wc.status().restarts).toBeGreaterThanOrEqual(3);
    // Stopped: no more forks.
    const forks = wc.status().restarts;
    await new Promise((r) => setTimeout(r, 200));
    expect(wc.status().restarts).toBe(forks);
  }, 60_000);

  it("a child that says it is ready is up; one that ignores SIGTERM is SIGKILLed after the grace and not forked again", async () => {
    const lines = logLines();
    const wc = new WorkerChild({ entry: fixture("stubborn.ts"), restartMs: 20 });
    cleanups.push(() => wc.stop(1_000));
    wc.start();
    await until("the child to be up", () => wc.status().up);
    expect(wc.status()).toEqual({ up: true, restarts: 0 });
    const pid = wc.pid();
    expect(pid).toBeTypeOf("number");
    await wc.stop(300);
    expect(lines.map((l) => l.msg)).toContain("the worker child did not stop in time: killed (its runs continue at the next start)");
    expect(wc.status()).toEqual({ up: false, restarts: 0 });
    expect(() => process.kill(pid ?? -1, 0)).toThrow();
  }, 60_000);
});
