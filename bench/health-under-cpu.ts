/**
 * Health under CPU abuse (docs/security.md "CPU isolation"): `/api/health` latency of the
 * built app while FOUR run_javascript infinite loops are under way. Goal: p99 < 100 ms.
 *
 * The attack goes the real way: alice signs in over HTTP, creates a flow from the Memory
 * assistant template (its policy ALLOWs run_javascript) and starts four runs of "Compute
 * `while (true) {}`", which the offline model turns into run_javascript calls. Once every
 * run has reported its script running, the bench sends HEALTH_REQUESTS requests to
 * `/api/health`, one every SPACING_MS on a fixed schedule, each timed from its scheduled
 * send (so a stalled server cannot hide behind fewer samples), while the loops spin toward
 * their 5 s deadline. Then one more run checks that the sandbox still computes (6 * 7 = 42).
 *
 * Configurations: the default pool (JS_WORKERS unset: cores - 1 threads), and JS_WORKERS=4
 * (all four loops spinning at once, more threads than cores). For comparison, the old
 * in-loop execution: the same four scripts run by the same sandbox code on the serving
 * thread of a bare node:http server (its health answer skips the database, which only
 * favours it). Everything listens on 127.0.0.1; every request has a time limit.
 *
 * Run: npm run bench:cpu (after `npx next build`)
 */
import { spawn } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { signIn } from "../tests/http/client";
import { startServer } from "../tests/http/server";
import { percentile, sampleLatencies, scriptEnding, scriptParts, startScriptRun } from "../tests/security/script-runs";

const HEALTH_REQUESTS = Number(process.env.BENCH_HEALTH_REQUESTS ?? 200);
const SPACING_MS = 20;
const LOOPS = 4;
const LOOP_TASK = "Compute `while (true) {}`";

function report(name: string, ms: number[]): number {
  const [p50, p95, p99, max] = [percentile(ms, 50), percentile(ms, 95), percentile(ms, 99), ms.at(-1) ?? Number.NaN];
  const f = (v: number) => `${v.toFixed(1)} ms`.padStart(10);
  console.log(`${name.padEnd(52)} p50 ${f(p50)}  p95 ${f(p95)}  p99 ${f(p99)}  max ${f(max)}`);
  return p99;
}

/** The built app with `env`: health with no load, then under four loops, then a check that scripts still run. */
async function appUnderLoops(label: string, env: Record<string, string>): Promise<{ idle: number[]; loaded: number[] }> {
  const server = await startServer({ LOG_LEVEL: "warn", ...env });
  try {
    const health = `${server.url}/api/health`;
    await sampleLatencies(health, 50, SPACING_MS); // warm-up: first requests compile the route and open the database
    const idle = await sampleLatencies(health, HEALTH_REQUESTS, SPACING_MS);
    const alice = server.users[0];
    if (!alice) throw new Error("no test user");
    const c = await signIn(server.url, alice.email, alice.password);
    const made = await c.post("/api/flows", { template: "memory-assistant" });
    if (made.status !== 201) throw new Error(`new flow: HTTP ${made.status} ${await made.text()}`);
    const { flowId } = (await made.json()) as { flowId: string };
    const runs = await Promise.all(Array.from({ length: LOOPS }, () => startScriptRun(c, flowId, LOOP_TASK, { firstScript: true })));
    await Promise.all(runs.map((r) => r.running));
    const loaded = await sampleLatencies(health, HEALTH_REQUESTS, SPACING_MS);
    const outcomes = await Promise.all(runs.map((r) => r.done));
    const check = await (await startScriptRun(c, flowId, "Compute `6 * 7`")).done;
    const result = scriptParts(check).at(-1)?.output ?? "";
    const ok = /"result": 42\b/.test(result);
    console.log(`${label}: the loops ended with ${outcomes.map(scriptEnding).join(", ")}; a later "Compute \`6 * 7\`" ${ok ? "returned 42" : `did NOT return 42: ${result}`}`);
    return { idle, loaded };
  } finally {
    await server.stop();
  }
}

/** The old behaviour: the four loops run by the sandbox code on the thread that serves health. */
async function inlineUnderLoops(): Promise<number[]> {
  const worker = pathToFileURL(path.resolve("lib/tools/js-worker.mjs")).href;
  const source = `
    import { createServer } from "node:http";
    import { runScript } from ${JSON.stringify(worker)};
    const limits = { inputJson: "null", timeoutMs: 5000, memoryBytes: 32 << 20, stackBytes: 256 << 10, maxLogLines: 200, maxLogLineChars: 1000 };
    const server = createServer(async (req, res) => {
      if (req.url === "/loop") res.end(JSON.stringify(await runScript({ ...limits, code: "while (true) {}" })));
      else res.end('{"ok":true}');
    });
    server.keepAliveTimeout = 120000; // a blocked loop must not look like idle sockets to close
    server.listen(0, "127.0.0.1", () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const port = await new Promise<string>((resolve, reject) => {
      child.stdout.once("data", (d) => resolve(String(d).trim()));
      child.once("exit", (code) => reject(new Error(`inline server exited (${code})`)));
    });
    const base = `http://127.0.0.1:${port}`;
    await sampleLatencies(`${base}/health`, HEALTH_REQUESTS, SPACING_MS); // warm-up
    const loops = Array.from({ length: LOOPS }, () => fetch(`${base}/loop`, { signal: AbortSignal.timeout(60_000) }).then((r) => r.text()));
    await new Promise((r) => setTimeout(r, 200)); // the loops reach the server first
    const loaded = await sampleLatencies(`${base}/health`, HEALTH_REQUESTS, SPACING_MS);
    await Promise.all(loops);
    return loaded;
  } finally {
    child.kill("SIGKILL");
  }
}

async function main(): Promise<void> {
  const cores = availableParallelism();
  const threads = `${Math.max(1, cores - 1)} thread${cores > 2 ? "s" : ""}`;
  const load = () => loadavg()[0]?.toFixed(2);
  console.log(`/api/health under ${LOOPS} run_javascript infinite loops: ${HEALTH_REQUESTS} requests, one every ${SPACING_MS} ms; ${cores} cores, load ${load()}`);
  const byDefault = await appUnderLoops(`default pool (${threads})`, {});
  report("app, no load", byDefault.idle);
  const p99 = report(`app under loops, default pool (${threads})`, byDefault.loaded);
  const wide = await appUnderLoops("JS_WORKERS=4", { JS_WORKERS: "4" });
  const p99Wide = report("app under loops, JS_WORKERS=4 (4 threads)", wide.loaded);
  const p99Inline = report("old in-loop execution, bare node:http server", await inlineUnderLoops());
  console.log(`ratio old in-loop / pool at p99: ${(p99Inline / p99).toFixed(0)}x (default), ${(p99Inline / p99Wide).toFixed(0)}x (JS_WORKERS=4)`);
  console.log(`load average at the end: ${load()} (other work on the machine shows as "app, no load" latency)`);
  console.log(`goal p99 < 100 ms under four loops: default pool ${p99 < 100 ? "met" : "NOT met"}; JS_WORKERS=4 ${p99Wide < 100 ? "met" : "NOT met"}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
