/**
 * Health while runs execute (docs/benchmarks.md "Health while runs execute"): `/api/health`
 * latency of the built app on the embedded default while 4 runs execute at all times, with
 * the runs on the web process's event loop (`RUN_IN=web`) and in its worker child
 * (`RUN_IN=process`, what `npm start` does), in one run of the bench, so the two compare as a
 * ratio on the same machine at the same time.
 *
 * Four drivers each start a run of the approval task (plan, read, a write stopped for
 * approval), approve it and follow it to its end, then start the next, so four runs are in
 * flight throughout (the offline model, which pauses OFFLINE_STREAM_WORD_MS between words).
 * They run in a process of their own (this file with `--drive`), so that reading four
 * streams never delays the sampler. Meanwhile BENCH_HEALTH_REQUESTS requests go to
 * `/api/health`, one every SPACING_MS on a fixed schedule, each timed from its scheduled
 * send. The load average is printed beside each figure.
 *
 * Run: node scripts/run-ts.mjs bench/health-under-runs.ts (after `npx next build`)
 */
import { spawn } from "node:child_process";
import { loadavg } from "node:os";
import { type Client, lastPart, readStream, signIn } from "../tests/http/client";
import { startRun } from "../tests/http/runs";
import { startServer } from "../tests/http/server";
import { percentile, sampleLatencies } from "../tests/security/script-runs";

const HEALTH_REQUESTS = Number(process.env.BENCH_HEALTH_REQUESTS ?? 500);
const SPACING_MS = 20;
const RUNS_AT_ONCE = 4;

/** One driver: approval runs back to back until `stop` says so. @returns the runs it completed. */
async function drive(c: Client, flowId: string, stop: () => boolean): Promise<number> {
  let done = 0;
  while (!stop()) {
    const { threadId, approval } = await startRun(c, flowId);
    const res = await c.post(`/api/threads/${threadId}/stream`, {
      input: { kind: "decision", decision: "approve", approvalId: approval.approvalId, token: approval.token, argsHash: approval.argsHash },
    });
    if (lastPart(await readStream(res), "data-run")?.status === "completed") done += 1;
  }
  return done;
}

async function measure(runIn: "web" | "process"): Promise<{ idle: number[]; loaded: number[]; runs: number; load: string }> {
  const server = await startServer({ LOG_LEVEL: "warn", RUN_IN: runIn, OFFLINE_STREAM_WORD_MS: "5" });
  try {
    const health = `${server.url}/api/health`;
    await sampleLatencies(health, 50, SPACING_MS); // warm-up
    // The worker child says when it is up.
    for (let i = 0; runIn === "process" && i < 600; i++) {
      const h = (await (await fetch(health)).json()) as { worker?: { up: boolean } };
      if (h.worker?.up) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // Its first seconds load the rest of its modules: both configurations wait them out.
    await new Promise((r) => setTimeout(r, 5_000));
    await sampleLatencies(health, 50, SPACING_MS);
    const idle = await sampleLatencies(health, HEALTH_REQUESTS / 2, SPACING_MS);
    const alice = server.users[0];
    if (!alice) throw new Error("no test user");
    const drivers = spawn(process.execPath, ["scripts/run-ts.mjs", "bench/health-under-runs.ts", "--drive", server.url, alice.email, alice.password, alice.flowId], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    let out = "";
    drivers.stdout.on("data", (d) => {
      out += String(d);
    });
    const ended = new Promise<void>((resolve) => drivers.once("exit", () => resolve()));
    // Let the four runs get under way (one approval run each) before sampling.
    await new Promise((r) => setTimeout(r, 3_000));
    const loaded = await sampleLatencies(health, HEALTH_REQUESTS, SPACING_MS);
    const load = loadavg()[0]?.toFixed(2) ?? "?";
    drivers.stdin.end("stop\n");
    await ended;
    return { idle, loaded, runs: Number(out.trim().split("\n").at(-1)), load };
  } finally {
    await server.stop();
  }
}

/** `--drive URL EMAIL PASSWORD FLOW`: the drivers' process; runs until its stdin closes, then prints the runs completed. */
async function driversMain(args: string[]): Promise<void> {
  const [url, email, password, flowId] = args;
  if (!url || !email || !password || !flowId) throw new Error("--drive URL EMAIL PASSWORD FLOW");
  const c = await signIn(url, email, password);
  let stopping = false;
  process.stdin.on("data", () => {
    stopping = true;
  });
  process.stdin.on("end", () => {
    stopping = true;
  });
  const done = await Promise.all(Array.from({ length: RUNS_AT_ONCE }, () => drive(c, flowId, () => stopping)));
  console.log(done.reduce((a, b) => a + b, 0));
  process.exit(0);
}

const f = (v: number) => `${v.toFixed(1)} ms`.padStart(9);
const line = (name: string, ms: number[], load: string) =>
  console.log(`${name.padEnd(44)} p50 ${f(percentile(ms, 50))}  p99 ${f(percentile(ms, 99))}  max ${f(ms.at(-1) ?? Number.NaN)}  (load ${load})`);

async function main(): Promise<void> {
  const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
  for (const runIn of ["web", "process"] as const) {
    const r = await measure(runIn);
    results[runIn] = r;
    line(`RUN_IN=${runIn}, idle`, r.idle, r.load);
    line(`RUN_IN=${runIn}, ${RUNS_AT_ONCE} runs executing (${r.runs} completed)`, r.loaded, r.load);
  }
  const web = results.web;
  const child = results.process;
  if (web && child) {
    const ratio = (p: number) => (percentile(child.loaded, p) / percentile(web.loaded, p)).toFixed(2);
    console.log(`worker child / in the web process, under runs: p50 ${ratio(50)}x, p99 ${ratio(99)}x`);
  }
}

const at = process.argv.indexOf("--drive");
await (at >= 0 ? driversMain(process.argv.slice(at + 1)) : main());
