/**
 * The side-by-side mode of `npm run bench:load -- --peer` (bench/load.ts): one workload driven
 * through the official SDK against two LangGraph servers, ours under /api/langgraph and the
 * official dev server (`langgraphjs dev`, in memory, from bench/peer/).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { freePort } from "../tests/http/server";

/** The folder of the peer: its own package.json, the peer graph, langgraph.json. */
export const PEER_DIR = path.resolve("bench/peer");

/** Figures of one side (ms unless named). */
export interface SdkRow {
  setup: string;
  runs: number;
  completed: number;
  wallS: number;
  perMin: number;
  fbP50: number;
  fbP99: number;
  toInterruptP50: number;
  toInterruptP99: number;
  resumeP50: number;
  resumeP99: number;
  /** Each step's first piece of text, from the step's start, ms (ours only; empty for the peer). */
  stepTokens: number[];
  /** The answer's first piece of text, from the finalizer's start, ms (ours only). */
  answerTokens: number[];
  /** Runs that did not end as they should, by reason. */
  failures: Record<string, number>;
}

/** The p-th percentile (nearest rank) of `xs`; NaN when empty. */
export function pct(xs: number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? Number.NaN;
}

/** One side of the comparison. */
export interface SdkSide {
  setup: string;
  client: Client;
  /** The assistant (graph) to run. */
  assistantId: string;
  /** Prepares a thread made by threads.create (its files) and returns the run's input. */
  prepare(threadId: string): Promise<Record<string, unknown>>;
  /** The resume value for the interrupt the run stopped at (its `value`). */
  resume(interruptValue: unknown): unknown;
}

type Chunk = { event: string; data: unknown };
const MODES = ["updates", "custom", "messages-tuple"] as const;

/**
 * Runs `runs` runs at once on `side`, each on a new thread: streamed to its interrupt, resumed,
 * streamed to its end; then checks each thread ended idle. Threads are made (and prepared)
 * before the clock starts. Times to first token: {@link textTimings}.
 */
export async function sdkPhase(side: SdkSide, runs: number): Promise<SdkRow> {
  const threads: { threadId: string; input: Record<string, unknown> }[] = [];
  for (let i = 0; i < runs; i++) {
    const t = await side.client.threads.create();
    threads.push({ threadId: t.thread_id, input: await side.prepare(t.thread_id) });
  }
  const fb: number[] = [];
  const toInterrupt: number[] = [];
  const resumed: number[] = [];
  const stepTokens: number[] = [];
  const answerTokens: number[] = [];
  const failures: Record<string, number> = {};
  const fail = (why: string) => {
    failures[why] = (failures[why] ?? 0) + 1;
  };
  let completed = 0;
  let lastEnd = 0;
  const started = performance.now();
  await Promise.all(
    threads.map(async ({ threadId, input }) => {
      try {
        const t0 = performance.now();
        let first = true;
        let interrupt: unknown;
        const timing = textTimings(stepTokens, answerTokens);
        for await (const c of side.client.runs.stream(threadId, side.assistantId, { input, streamMode: [...MODES] }) as AsyncIterable<Chunk>) {
          const at = performance.now();
          if (first) fb.push(at - t0);
          first = false;
          timing(c);
          const hit = c.event === "updates" ? (c.data as { __interrupt__?: { value: unknown }[] }).__interrupt__?.[0] : undefined;
          if (hit) interrupt = hit.value;
          if (c.event === "error") return fail(`error: ${JSON.stringify(c.data).slice(0, 80)}`);
        }
        if (interrupt === undefined) {
          // The stream ended before the interrupt (a client or proxy timeout under load): as a
          // client would, wait for the thread to stop, then read the interrupt from its state.
          fail("stream ended before the interrupt (read from the thread's state)");
          interrupt = await interruptOfState(side.client, threadId);
          if (interrupt === undefined) return fail("no interrupt");
        }
        toInterrupt.push(performance.now() - t0);
        const t1 = performance.now();
        for await (const c of side.client.runs.stream(threadId, side.assistantId, { command: { resume: side.resume(interrupt) }, streamMode: [...MODES] }) as AsyncIterable<Chunk>) {
          timing(c);
          if (c.event === "error") return fail(`error: ${JSON.stringify(c.data).slice(0, 80)}`);
          if (c.event === "updates" && (c.data as Record<string, unknown>).__interrupt__) return fail("interrupted again");
        }
        const end = performance.now();
        resumed.push(end - t1);
        lastEnd = Math.max(lastEnd, end);
        completed += 1;
      } catch (err) {
        fail(`threw: ${err instanceof Error ? err.message.slice(0, 80) : String(err)}`);
      }
    }),
  );
  const wallMs = (lastEnd || performance.now()) - started;
  for (const { threadId } of threads) {
    const t = await side.client.threads.get(threadId).catch(() => null);
    if (t?.status !== "idle") fail(`thread ${t?.status ?? "unreadable"} after the run`);
  }
  return {
    setup: side.setup,
    runs,
    completed,
    wallS: wallMs / 1000,
    perMin: (completed / wallMs) * 60_000,
    fbP50: pct(fb, 50),
    fbP99: pct(fb, 99),
    toInterruptP50: pct(toInterrupt, 50),
    toInterruptP99: pct(toInterrupt, 99),
    resumeP50: pct(resumed, 50),
    resumeP99: pct(resumed, 99),
    stepTokens,
    answerTokens,
    failures,
  };
}

/**
 * Time to first token of one run's streams (P8), on one clock (Date.now(), the server's on the
 * same machine):
 * - a step: from its `custom` `data-step` in progress to the first `messages` piece of its
 *   text (message id `step-<step id>-...`); the start arrives through the stored events and
 *   the pieces live, so a start that arrives after its first piece counts 0;
 * - the answer: from the finalizer's start (the `data-lifecycle` into GLOBAL_REVIEW: its `at`,
 *   the server's time) to the first piece of the answer (message id `final-...`).
 */
export function textTimings(stepTokens: number[], answerTokens: number[]): (c: Chunk) => void {
  const stepStart = new Map<string, number>();
  const stepFirst = new Map<string, number>();
  let answerStart: number | null = null;
  let answerFirst: number | null = null;
  const settle = (stepId: string) => {
    const [s, f] = [stepStart.get(stepId), stepFirst.get(stepId)];
    if (s === undefined || f === undefined) return;
    stepTokens.push(Math.max(0, f - s));
    stepStart.delete(stepId);
    stepFirst.set(stepId, Number.NaN);
  };
  const settleAnswer = () => {
    if (answerStart === null || answerFirst === null) return;
    answerTokens.push(answerFirst - answerStart);
    answerStart = Number.NaN;
  };
  return (c) => {
    const now = Date.now();
    if (c.event === "custom") {
      const part = c.data as { type?: string; id?: string; data?: { status?: string; to?: string; at?: string } };
      if (part.type === "data-step" && part.data?.status === "in_progress" && part.id && !stepStart.has(part.id)) {
        stepStart.set(part.id, now);
        if (stepFirst.has(part.id)) {
          stepStart.set(part.id, Math.min(now, stepFirst.get(part.id) ?? now));
          settle(part.id);
        }
      }
      if (part.type === "data-lifecycle" && part.data?.to === "GLOBAL_REVIEW" && answerStart === null && part.data.at) {
        answerStart = Date.parse(part.data.at);
        settleAnswer();
      }
      return;
    }
    if (c.event !== "messages") return;
    const id = (c.data as [{ id?: string }])[0]?.id ?? "";
    if (id.startsWith("final-") && answerFirst === null) {
      answerFirst = now;
      settleAnswer();
    }
    const stepId = /^step-([0-9a-f-]{36})-/.exec(id)?.[1];
    if (stepId && !stepFirst.has(stepId)) {
      stepFirst.set(stepId, now);
      settle(stepId);
    }
  };
}

/** The first interrupt's value of a thread once it is no longer busy; undefined when it has none. */
async function interruptOfState(client: Client, threadId: string): Promise<unknown> {
  while ((await client.threads.get(threadId)).status === "busy") await new Promise((r) => setTimeout(r, 500));
  const state = await client.threads.getState(threadId);
  return state.tasks.flatMap((t) => t.interrupts)[0]?.value;
}

/** A started peer server. */
export interface Peer {
  url: string;
  client: Client;
  /** The peer graph's assistant id. */
  assistantId: string;
  stop(): Promise<void>;
}

/**
 * Installs the peer into bench/peer/ when it is not there (its own package.json: the app's
 * install never gets it), starts `npx langgraphjs dev --port <port> --no-browser` from there
 * and waits until it serves the graph `load`.
 * @throws Error when the install fails or the server does not serve the graph within 120 s
 *   (its output is in the message).
 */
export async function startPeer(port?: number): Promise<Peer> {
  if (!existsSync(path.join(PEER_DIR, "node_modules/@langchain/langgraph-api"))) {
    console.log("installing the peer into bench/peer/ (npm install --prefix bench/peer --legacy-peer-deps) ...");
    execFileSync("npm", ["install", "--prefix", PEER_DIR, "--legacy-peer-deps", "--no-audit", "--no-fund"], { stdio: "inherit" });
  }
  const p = port ?? (await freePort());
  const url = `http://127.0.0.1:${p}`;
  const log: string[] = [];
  const proc: ChildProcess = spawn("npx", ["langgraphjs", "dev", "--port", String(p), "--no-browser"], {
    cwd: PEER_DIR,
    detached: true,
    env: { ...process.env, LANGSMITH_TRACING: "false", LANGGRAPH_NO_BROWSER: "1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout?.on("data", (d) => log.push(String(d)));
  proc.stderr?.on("data", (d) => log.push(String(d)));
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null || !proc.pid) return;
    const exited = new Promise((r) => proc.once("exit", r));
    process.kill(-proc.pid, "SIGTERM"); // npx and the server it started: one process group
    await exited;
  };
  const client = new Client({ apiUrl: url });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) break;
    const found = await client.assistants.search({ graphId: "load", limit: 1 }).catch(() => []);
    if (found[0]) return { url, client, assistantId: found[0].assistant_id, stop };
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`the peer did not serve the graph "load":\n${log.join("").slice(-4000)}`);
}
