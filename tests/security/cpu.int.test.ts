import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, signIn } from "../http/client";
import { startServer, type TestServer } from "../http/server";
import { percentile, sampleLatencies, scriptEnding, scriptParts, startScriptRun } from "./script-runs";

/**
 * CPU isolation through the built app (docs/security.md "CPU isolation"): an account whose
 * flow allows run_javascript sends endless scripts; the server keeps answering everyone,
 * stops the scripts at their deadline, bounds how many may wait, and keeps computing for
 * other accounts. One sandbox thread (JS_WORKERS=1), so the queue holds 4.
 */

const LOOP = "Compute `while (true) {}`";

let server: TestServer;
let attacker: Client;
let attackerFlow: string;
let other: Client;
let otherFlow: string;

async function memoryFlow(c: Client): Promise<string> {
  const res = await c.post("/api/flows", { template: "memory-assistant" });
  expect(res.status).toBe(201);
  return ((await res.json()) as { flowId: string }).flowId;
}

beforeAll(async () => {
  // Eight run slots, more than the script pool takes (one thread, four queued): the pool, not
  // the run queue, is what these tests push against.
  server = await startServer({ JS_WORKERS: "1", RUN_WORKERS: "8", LOG_LEVEL: "warn" });
  const [alice, bob] = server.users;
  if (!alice || !bob) throw new Error("the test server has no users");
  attacker = await signIn(server.url, alice.email, alice.password);
  other = await signIn(server.url, bob.email, bob.password);
  attackerFlow = await memoryFlow(attacker);
  otherFlow = await memoryFlow(other);
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe("CPU isolation: endless scripts", () => {
  it("an attacker's four endless scripts leave /api/health and another account's pages answering fast", async () => {
    const runs = await Promise.all(Array.from({ length: 4 }, () => startScriptRun(attacker, attackerFlow, LOOP, { firstScript: true })));
    await Promise.all(runs.map((r) => r.running));
    const health = await sampleLatencies(`${server.url}/api/health`, 50, 20);
    const started = performance.now();
    const page = await other.fetch(`/api/flows/${otherFlow}/versions`);
    const pageMs = performance.now() - started;
    expect(page.status).toBe(200);
    // On the event loop, each script would hold every request for its whole 5 s deadline.
    expect(percentile(health, 99)).toBeLessThan(1_000);
    expect(pageMs).toBeLessThan(2_000);
    const endings = (await Promise.all(runs.map((r) => r.done))).map(scriptEnding);
    expect(
      endings.every((e) => e === "js_timeout" || e === "timeout"),
      endings.join(", "),
    ).toBe(true);
    expect(endings).toContain("js_timeout");
  }, 60_000);

  it("an attacker cannot pile up scripts: past the queue the server answers js_busy at once", async () => {
    const runs = await Promise.all(Array.from({ length: 8 }, () => startScriptRun(attacker, attackerFlow, LOOP, { firstScript: true })));
    const endings = (await Promise.all(runs.map((r) => r.done))).map(scriptEnding);
    expect(endings.filter((e) => e === "js_busy").length, endings.join(", ")).toBeGreaterThanOrEqual(1);
    // One thread and four places in the queue: at most five of the eight were accepted.
    expect(endings.filter((e) => e !== "js_busy").length, endings.join(", ")).toBeLessThanOrEqual(5);
  }, 60_000);

  it("after the attack, another account's script still runs: Compute `6 * 7` returns 42", async () => {
    // The attacker's runs go on without their clients (a failed script is retried, then
    // planned again), each script bounded by its deadline and the queue: once they have
    // drained, the other account computes again. Until then its script is refused (js_busy) or
    // waits for the thread past its call's time (timeout): both say the pool is still draining.
    const deadline = performance.now() + 120_000;
    let text = "";
    while (performance.now() < deadline) {
      text = await (await startScriptRun(other, otherFlow, "Compute `6 * 7`", { firstScript: true })).done;
      const ending = scriptEnding(text);
      if (ending !== "js_busy" && ending !== "timeout") break;
      await new Promise((r) => setTimeout(r, 2_000));
    }
    expect(scriptEnding(text)).toBe("ok");
    expect(scriptParts(text).find((p) => p.status === "done")?.output).toMatch(/"result": 42\b/);
  }, 150_000);
});
