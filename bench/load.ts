/**
 * `npm run bench:load`: durable runs under load (docs/durability.md), with real processes.
 *
 * 1. LOAD_RUNS (200) concurrent runs of LOAD_STEPS (20) steps each under the offline model:
 *    "Summarize f01.md, …, f19.md into summary.md" plans one read per file and one write
 *    (the flow allows the write, so nothing waits for a person). Measured: runs lost (not
 *    completed), runs per minute, step latency (plan_step_started -> plan_step_completed,
 *    from the stored events), each stream's first byte, and the time to first token of the
 *    answer (P8: the finalizer's start, its lifecycle part's server time, to the answer's
 *    first text delta; the offline model streams word by word), p50/p99.
 *    - embedded: one `next start` on SQLite executing its runs (RUN_WORKERS=4);
 *    - cluster: 2 web instances (RUN_WORKERS=0) and 1, then 2, `npm run worker` processes on
 *      PostgreSQL (needs TEST_DATABASE_URL, an admin URL; skipped without it).
 * 2. LOAD_PAUSED (10,000) runs paused at an approval, SEEDED DIRECTLY in the database (a
 *    thread and a pending approval each: running them would take far longer than the point
 *    needs), on the embedded instance: the web's RSS before and after, and the inbox's
 *    first page (GET /api/approvals) latency.
 * Prints a table. Needs the built app (`npx next build`).
 *
 * `npm run bench:load -- --peer` (or LOAD_PEER=1): the same workload side by side with the
 * official LangGraph server, `@langchain/langgraph-api`'s dev server (`langgraphjs dev`, in
 * memory), in the same run, instead of the phases above. Both are driven by the same client,
 * the official SDK (@langchain/langgraph-sdk), LOAD_RUNS runs at once, each on its own thread:
 * the run streamed (`updates`, `custom`, `messages-tuple`) to its one interrupt (the write's
 * approval), then resumed (accept) and streamed to its end.
 *    - ours: the embedded default as `npm start` runs it (one `next start` on SQLite executing
 *      its runs, RUN_IN=web, RUN_WORKERS=4, offline model; LOAD_RUN_IN=process executes them in
 *      its worker child) through /api/langgraph, the Workspace assistant as shipped (the write waits for approval);
 *    - peer: bench/peer/graph.mts, the same super-steps (plan, one step per file that reads it,
 *      the interrupt, the write, the answer), no model.
 *    Measured per side: first byte (first event of the stream), run to interrupt, resume to end
 *    (p50/p99, ms), runs per minute, and ours / peer as ratios; for ours, time to first token
 *    under that load (P8): each step's first piece of text from the step's start (its
 *    `data-step` in progress), and the answer's first piece from the finalizer's start.
 *    The peer lives in bench/peer/ with its own package.json, never in the app's install (it
 *    needs --legacy-peer-deps); the bench installs it on first use
 *    (`npm install --prefix bench/peer --legacy-peer-deps`) and starts it from there
 *    (`npx langgraphjs dev --port LOAD_PEER_PORT --no-browser`; a free port by default).
 *    Start with LOAD_RUNS=20; the 200-run figure needs a quiet machine.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadavg, tmpdir } from "node:os";
import { Client as SdkClient } from "@langchain/langgraph-sdk";
import { createDb, type Db } from "../lib/db/client";
import { createFlow } from "../lib/db/flows";
import { workspaceAssistant } from "../templates/workspace-assistant";
import { type Cluster, startCluster } from "../tests/cluster/cluster";
import { type Client, signIn } from "../tests/http/client";
import { pct as percentile, type SdkRow, type SdkSide, sdkPhase, startPeer } from "./load-sdk";

const RUNS = Number(process.env.LOAD_RUNS ?? 200);
const STEPS = Math.max(2, Number(process.env.LOAD_STEPS ?? 20));
const PAUSED = Number(process.env.LOAD_PAUSED ?? 10_000);
const PG = process.env.TEST_DATABASE_URL;
const PEER = process.argv.includes("--peer") || process.env.LOAD_PEER === "1";
const PEER_PORT = process.env.LOAD_PEER_PORT ? Number(process.env.LOAD_PEER_PORT) : undefined;
/** `--peer` with LOAD_CPU_PROF=<folder>: our server runs with `--cpu-prof` into that folder (a
 * .cpuprofile written when it stops, for Chrome DevTools or `npx speedscope`), and the peer is skipped. */
const CPU_PROF = process.env.LOAD_CPU_PROF ? path.resolve(process.env.LOAD_CPU_PROF) : undefined;

const files = Array.from({ length: STEPS - 1 }, (_, i) => `f${String(i + 1).padStart(2, "0")}.md`);
const TASK = `Summarize ${files.join(", ")} into summary.md`;

const pct = percentile;

/** The contents of each file a load run reads. */
const fileText = (f: string) => `# ${f}\n\nPoint one of ${f}.\nPoint two of ${f}.\n`;

/** The Workspace assistant with writing allowed (no approval), in alice's workspace. */
async function loadFlow(db: Db, ownerId: string): Promise<string> {
  const doc = structuredClone(workspaceAssistant);
  doc.settings.name = "Load";
  const policy = doc.nodes.find((n) => n.type === "policy");
  if (policy?.type === "policy") for (const r of policy.data.rules) if (r.tool === "write_file") r.decision = "ALLOW";
  return (await createFlow(db, ownerId, doc)).id;
}

interface Row {
  setup: string;
  runs: number;
  completed: number;
  lost: number;
  wallS: number;
  perMin: number;
  stepP50: number;
  stepP99: number;
  fbP50: number;
  fbP99: number;
  /** Time to first token of the answer from the finalizer's start (P8), ms. */
  ttftP50: number;
  ttftP99: number;
}

/** Runs RUNS runs at once over the web clients (round robin) and measures them. */
async function loadPhase(setup: string, c: Cluster, db: Db, webs: Client[], flowId: string): Promise<Row> {
  const threads: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const web = webs[i % webs.length] as Client;
    const res = await web.post("/api/threads", { flowId, task: TASK });
    const { threadId } = (await res.json()) as { threadId: string };
    const dir = path.join(c.workspacesDir, threadId);
    mkdirSync(dir, { recursive: true });
    for (const f of files) writeFileSync(path.join(dir, f), fileText(f));
    threads.push(threadId);
  }
  const firstBytes: number[] = [];
  const answerTokens: number[] = [];
  const statuses: string[] = [];
  const started = Date.now();
  await Promise.all(
    threads.map(async (threadId, i) => {
      const web = webs[i % webs.length] as Client;
      const t0 = Date.now();
      const res = await web.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: TASK } });
      if (res.status !== 200 || !res.body) {
        statuses.push(`http ${res.status}`);
        return;
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      let text = "";
      let first = true;
      let answerStart: number | null = null;
      let answerFirst: number | null = null;
      while (true) {
        const next = await reader.read();
        if (next.done) break;
        const now = Date.now();
        if (first) {
          firstBytes.push(now - t0);
          first = false;
        }
        const piece = decoder.decode(next.value, { stream: true });
        // P8: the finalizer's start (the lifecycle into GLOBAL_REVIEW, the server's time) to the answer's first delta.
        if (answerStart === null) {
          const at = /"to":"GLOBAL_REVIEW"[^\n]*?"at":"([^"]+)"/.exec(text.slice(-4000) + piece)?.[1];
          if (at) answerStart = Date.parse(at);
        }
        if (answerFirst === null && /"type":"text-delta","id":"final-/.test(text.slice(-200) + piece)) answerFirst = now;
        text += piece;
      }
      if (answerStart !== null && answerFirst !== null) answerTokens.push(answerFirst - answerStart);
      const runs = [...text.matchAll(/"type":"data-run"[^\n]*?"status":"([a-z_]+)"/g)];
      statuses.push(runs.at(-1)?.[1] ?? "no run part");
    }),
  );
  const wallMs = Date.now() - started;
  const events = await db.runEvent.findMany({
    where: { threadId: { in: threads }, type: { in: ["plan_step_started", "plan_step_completed"] } },
    select: { threadId: true, type: true, data: true, createdAt: true },
  });
  const startedAt = new Map<string, number>();
  const steps: number[] = [];
  for (const e of events.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
    const stepId = /"stepId":"([^"]+)"/.exec(e.data)?.[1] ?? /"id":"([^"]+)"/.exec(e.data)?.[1] ?? "";
    const key = `${e.threadId}/${stepId}`;
    if (e.type === "plan_step_started") startedAt.set(key, e.createdAt.getTime());
    else {
      const s = startedAt.get(key);
      if (s !== undefined) steps.push(e.createdAt.getTime() - s);
    }
  }
  const completed = statuses.filter((s) => s === "completed").length;
  const other = statuses.filter((s) => s !== "completed");
  if (other.length > 0) console.log(`  ${setup}: not completed: ${JSON.stringify(Object.fromEntries([...new Set(other)].map((s) => [s, other.filter((x) => x === s).length])))}`);
  return {
    setup,
    runs: RUNS,
    completed,
    lost: RUNS - completed,
    wallS: wallMs / 1000,
    perMin: (completed / wallMs) * 60_000,
    stepP50: pct(steps, 50),
    stepP99: pct(steps, 99),
    fbP50: pct(firstBytes, 50),
    fbP99: pct(firstBytes, 99),
    ttftP50: pct(answerTokens, 50),
    ttftP99: pct(answerTokens, 99),
  };
}

/** RSS of a process, MB (Linux /proc). */
function rssMb(pid: number | null): number {
  if (!pid) return Number.NaN;
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) / 1024;
}

async function inboxTimes(client: Client, n: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await client.fetch("/api/approvals");
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`inbox: HTTP ${res.status}`);
    times.push(performance.now() - t0);
  }
  return times;
}

/** Seeds PAUSED threads, each paused at a pending approval of alice's flow. */
async function seedPaused(db: Db, userId: string, flowId: string): Promise<void> {
  const flow = await db.flow.findUniqueOrThrow({ where: { id: flowId }, include: { versions: { orderBy: { version: "desc" }, take: 1 } } });
  const flowVersionId = flow.versions[0]?.id ?? "";
  const expiresAt = new Date(Date.now() + 24 * 3600_000);
  for (let done = 0; done < PAUSED; done += 1000) {
    const batch = Array.from({ length: Math.min(1000, PAUSED - done) }, (_, i) => `paused${randomBytes(6).toString("hex")}${done + i}`);
    await db.thread.createMany({ data: batch.map((id) => ({ id, userId, flowId, flowVersionId, title: `Paused ${id}`, status: "awaiting_approval" })) });
    await db.approval.createMany({
      data: batch.map((threadId) => ({
        id: `ap-${threadId}`,
        threadId,
        userId,
        toolName: "write_file",
        toolCallId: `call-${threadId}`,
        canonicalArgs: JSON.stringify({ content: "x", path: "summary.md" }),
        argsHash: randomBytes(32).toString("hex"),
        expiresAt,
        agentId: "assistant",
        agentName: "Assistant",
        stepTask: "Write summary.md",
      })),
    });
  }
}

/** The 1-minute load average, for the figures beside it. */
const load1 = () => loadavg()[0]?.toFixed(2) ?? "-";

/**
 * `--peer`: ours (the embedded default, through /api/langgraph with an API key) and the
 * official dev server (bench/peer/), LOAD_RUNS runs each through the SDK, then the table
 * side by side with ours / peer ratios, and ours' time to first token (P8).
 */
async function peerMain(): Promise<void> {
  console.log(`load bench, side by side: ${RUNS} concurrent runs each (plan, ${STEPS - 1} reads, the write's approval, resume) through @langchain/langgraph-sdk`);
  const rows: { row: SdkRow; load: string }[] = [];
  const peer = CPU_PROF ? null : await startPeer(PEER_PORT);
  const peerDir = mkdtempSync(path.join(tmpdir(), "phylactery-peer-"));
  try {
    const webNodeArgs = CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF}`, ...(process.env.LOAD_NODE_ARGS ?? "").split(" ").filter(Boolean)] : [];
    // As `npm start` runs it (RUN_IN=web; LOAD_RUN_IN=process: the runs in the web process's worker child).
    const embedded = await startCluster({ webs: 1, workers: 0, database: "sqlite", webRunWorkers: 4, webNodeArgs, env: { RUN_IN: process.env.LOAD_RUN_IN ?? "web" } });
    const web = embedded.webs[0];
    try {
      const db = createDb(embedded.dbUrl);
      const [a] = embedded.users;
      if (!a || !web?.url) throw new Error("fixture");
      const alice = await signIn(web.url, a.email, a.password);
      const key = (await (await alice.post("/api/keys", { name: "bench:load" })).json()) as { key: string };
      const flowId = (await createFlow(db, a.id, { ...structuredClone(workspaceAssistant), settings: { ...workspaceAssistant.settings, name: "Load (approval)" } })).id;
      await db.$disconnect();
      const ours: SdkSide = {
        setup: `ours: embedded SQLite, npm start (RUN_IN=${process.env.LOAD_RUN_IN ?? "web"}, RUN_WORKERS=4)`,
        client: new SdkClient({ apiUrl: `${web.url}/api/langgraph`, apiKey: key.key }),
        assistantId: flowId,
        async prepare(threadId) {
          const dir = path.join(embedded.workspacesDir, threadId);
          mkdirSync(dir, { recursive: true });
          for (const f of files) writeFileSync(path.join(dir, f), fileText(f));
          return { messages: [{ role: "user", content: TASK }] };
        },
        resume: (value) => [{ type: "accept", args: (value as { action_request: unknown }[])[0]?.action_request }],
      };
      const theirs: SdkSide | null = peer && {
        setup: "peer: langgraphjs dev (in memory)",
        client: peer.client,
        assistantId: peer.assistantId,
        async prepare(threadId) {
          const dir = path.join(peerDir, threadId);
          mkdirSync(dir, { recursive: true });
          for (const f of files) writeFileSync(path.join(dir, f), fileText(f));
          return { task: TASK, dir };
        },
        resume: () => ({ type: "accept" }),
      };
      // A few runs each first, so neither side is measured compiling or warming up.
      await sdkPhase(ours, 2);
      if (theirs) await sdkPhase(theirs, 2);
      for (const side of theirs ? [theirs, ours] : [ours]) {
        const before = load1();
        const row = await sdkPhase(side, RUNS);
        rows.push({ row, load: `${before} -> ${load1()}` });
        if (Object.keys(row.failures).length > 0) console.log(`  ${row.setup}: ${JSON.stringify(row.failures)}`);
      }
    } finally {
      // A graceful stop, so that --cpu-prof writes its profile.
      if (CPU_PROF) await web?.stop();
      await embedded.stop();
    }
    if (CPU_PROF) console.log(`our server's CPU profile: ${CPU_PROF}`);
  } finally {
    await peer?.stop();
    rmSync(peerDir, { recursive: true, force: true });
  }
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "-");
  console.log("\n| setup | runs | completed | wall s | runs/min | first byte p50 / p99 ms | run to interrupt p50 / p99 ms | resume to end p50 / p99 ms | load avg (1 min) |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const { row: r, load } of rows) {
    console.log(
      `| ${r.setup} | ${r.runs} | ${r.completed} | ${r.wallS.toFixed(1)} | ${r.perMin.toFixed(1)} | ${f(r.fbP50)} / ${f(r.fbP99)} | ${f(r.toInterruptP50)} / ${f(r.toInterruptP99)} | ${f(r.resumeP50)} / ${f(r.resumeP99)} | ${load} |`,
    );
  }
  const [p, o] = [rows[0]?.row, rows[1]?.row];
  if (p && o) {
    const x = (a: number, b: number) => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}x` : "-");
    console.log(
      `| ours / peer | | | | ${x(o.perMin, p.perMin)} | ${x(o.fbP50, p.fbP50)} / ${x(o.fbP99, p.fbP99)} | ${x(o.toInterruptP50, p.toInterruptP50)} / ${x(o.toInterruptP99, p.toInterruptP99)} | ${x(o.resumeP50, p.resumeP50)} / ${x(o.resumeP99, p.resumeP99)} | |`,
    );
    console.log("(runs/min: above 1x is ours ahead; times: below 1x is ours ahead)");
    console.log(
      `\ntime to first token under this load (P8, ours, offline model): a step's first piece of text from the step's start p50 ${f(pct(o.stepTokens, 50))} ms, p99 ${f(pct(o.stepTokens, 99))} ms (${o.stepTokens.length} steps); the answer's first piece from its start p50 ${f(pct(o.answerTokens, 50))} ms, p99 ${f(pct(o.answerTokens, 99))} ms (${o.answerTokens.length} answers)`,
    );
  }
}

async function main(): Promise<void> {
  if (PEER) return peerMain();
  const rows: Row[] = [];
  const paused: string[] = [];
  console.log(`load bench: ${RUNS} concurrent runs of ${STEPS} steps (offline model: ${STEPS - 1} reads + 1 write), ${PAUSED} paused runs (seeded)`);

  const embedded = await startCluster({ webs: 1, workers: 0, database: "sqlite", webRunWorkers: 4 });
  try {
    const db = createDb(embedded.dbUrl);
    const [a] = embedded.users;
    const web = embedded.webs[0];
    if (!a || !web?.url) throw new Error("fixture");
    const alice = await signIn(web.url, a.email, a.password);
    const flowId = await loadFlow(db, a.id);
    rows.push(await loadPhase("embedded SQLite, 1 process (RUN_WORKERS=4)", embedded, db, [alice], flowId));
    await inboxTimes(alice, 5);
    const before = rssMb(web.pid());
    const emptyInbox = await inboxTimes(alice, 10);
    const t0 = Date.now();
    await seedPaused(db, a.id, a.flowId);
    const seedS = (Date.now() - t0) / 1000;
    const full = await inboxTimes(alice, 20);
    const after = rssMb(web.pid());
    await inboxTimes(alice, 30);
    const after50 = rssMb(web.pid());
    paused.push(
      `paused runs (SQLite): ${PAUSED} seeded in ${seedS.toFixed(1)} s; web RSS ${before.toFixed(0)} MB before, ${after.toFixed(0)} MB after 20 inbox reads, ${after50.toFixed(0)} MB after 50; inbox first page p50 ${pct(full, 50).toFixed(0)} ms, max ${Math.max(...full).toFixed(0)} ms (empty inbox p50 ${pct(emptyInbox, 50).toFixed(0)} ms)`,
    );
    await db.$disconnect();
  } finally {
    await embedded.stop();
  }

  if (PG) {
    const cluster = await startCluster({ webs: 2, workers: 2, database: "postgresql" });
    try {
      const db = createDb(cluster.dbUrl);
      const [a] = cluster.users;
      if (!a) throw new Error("fixture");
      const webs = await Promise.all(cluster.webs.map((w) => signIn(w.url ?? "", a.email, a.password)));
      const flowId = await loadFlow(db, a.id);
      await cluster.workers[1]?.stop();
      rows.push(await loadPhase("cluster PostgreSQL, 2 web + 1 worker", cluster, db, webs, flowId));
      await cluster.workers[1]?.start();
      rows.push(await loadPhase("cluster PostgreSQL, 2 web + 2 workers", cluster, db, webs, flowId));
      await db.$disconnect();
    } finally {
      await cluster.stop();
    }
  } else {
    console.log("(cluster rows skipped: set TEST_DATABASE_URL to a PostgreSQL admin URL)");
  }

  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "-");
  console.log("\n| setup | runs | completed | lost | wall s | runs/min | step p50 ms | step p99 ms | first byte p50 ms | first byte p99 ms | first token p50 ms | first token p99 ms |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows)
    console.log(
      `| ${r.setup} | ${r.runs} | ${r.completed} | ${r.lost} | ${r.wallS.toFixed(1)} | ${r.perMin.toFixed(1)} | ${f(r.stepP50)} | ${f(r.stepP99)} | ${f(r.fbP50)} | ${f(r.fbP99)} | ${f(r.ttftP50)} | ${f(r.ttftP99)} |`,
    );
  console.log("(first token: the answer's first text delta, from the finalizer's start: P8)");
  for (const p of paused) console.log(`\n${p}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
