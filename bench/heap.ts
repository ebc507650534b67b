/**
 * `npm run bench:heap`: memory under load (docs/benchmarks.md "Memory"). Starts the embedded
 * default (the built app under `next start` on SQLite, RUN_WORKERS=4; `npx next build` first)
 * with `--heapsnapshot-signal=SIGUSR2`, runs HEAP_RUNS_A (100) runs, HEAP_CONCURRENCY (10) at
 * a time, of HEAP_STEPS (3) steps each under the offline model (the load flow of bench:load:
 * reads, then a write the flow allows), takes a heap snapshot (SIGUSR2: V8 collects garbage
 * first), runs on to HEAP_RUNS_B (1,000) and takes another. Prints the web's RSS and heap at
 * each, the heap growth per 100 runs, and the constructors that grew most (bench/heap-diff.ts).
 * The snapshots stay in bench/.out/heap/ (HEAP_KEEP=0 removes them).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createDb } from "../lib/db/client";
import { createFlow } from "../lib/db/flows";
import { workspaceAssistant } from "../templates/workspace-assistant";
import { type Cluster, startCluster } from "../tests/cluster/cluster";
import { type Client, signIn } from "../tests/http/client";
import { heapDiff, heapGroups, heapTotal } from "./heap-diff";

const RUNS_A = Number(process.env.HEAP_RUNS_A ?? 100);
const RUNS_B = Number(process.env.HEAP_RUNS_B ?? 1000);
const CONCURRENCY = Number(process.env.HEAP_CONCURRENCY ?? 10);
const STEPS = Math.max(2, Number(process.env.HEAP_STEPS ?? 3));
const OUT = path.resolve("bench/.out/heap");

const files = Array.from({ length: STEPS - 1 }, (_, i) => `f${String(i + 1).padStart(2, "0")}.md`);
const TASK = `Summarize ${files.join(", ")} into summary.md`;

/** RSS of a process, MB (Linux /proc). */
function rssMb(pid: number | null): number {
  if (!pid) return Number.NaN;
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024;
}

/** One run over the stream route, to its end; returns the run's last status. */
async function oneRun(c: Cluster, web: Client, flowId: string): Promise<string> {
  const res = await web.post("/api/threads", { flowId, task: TASK });
  const { threadId } = (await res.json()) as { threadId: string };
  const dir = path.join(c.workspacesDir, threadId);
  mkdirSync(dir, { recursive: true });
  for (const f of files) writeFileSync(path.join(dir, f), `# ${f}\n\nPoint one of ${f}.\n`);
  const text = await (await web.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: TASK } })).text();
  return [...text.matchAll(/"type":"data-run"[^\n]*?"status":"([a-z_]+)"/g)].at(-1)?.[1] ?? "no run part";
}

/** Runs `n` runs, CONCURRENCY at a time; counts their last statuses. */
async function runMany(c: Cluster, web: Client, flowId: string, n: number, statuses: Map<string, number>, pid: number): Promise<void> {
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        next += 1;
        const s = await oneRun(c, web, flowId);
        statuses.set(s, (statuses.get(s) ?? 0) + 1);
        done += 1;
        if (done % 100 === 0) console.log(`  ... ${done} of ${n} runs, RSS ${rssMb(pid).toFixed(0)} MB`);
      }
    }),
  );
}

/** Sends SIGUSR2 and waits for the snapshot file to be written (the server answers again). */
async function snapshot(pid: number, url: string, label: string): Promise<string> {
  const before = new Set(readdirSync(OUT));
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const made = readdirSync(OUT).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
    if (made) {
      // The server answers again once the (synchronous) write is done.
      while (
        !(await fetch(`${url}/api/health`).then(
          (r) => r.ok,
          () => false,
        ))
      )
        await new Promise((r) => setTimeout(r, 500));
      let size = -1;
      while (statSync(path.join(OUT, made)).size !== size) {
        size = statSync(path.join(OUT, made)).size;
        await new Promise((r) => setTimeout(r, 500));
      }
      const named = path.join(OUT, `${label}.heapsnapshot`);
      rmSync(named, { force: true });
      writeFileSync(named, readFileSync(path.join(OUT, made)));
      rmSync(path.join(OUT, made));
      return named;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("no heap snapshot written");
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  console.log(`heap bench: ${RUNS_A} then ${RUNS_B} runs of ${STEPS} steps, ${CONCURRENCY} at a time, embedded SQLite (RUN_WORKERS=4)`);
  const c = await startCluster({ webs: 1, workers: 0, database: "sqlite", webRunWorkers: 4, env: { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${OUT}` } });
  try {
    const db = createDb(c.dbUrl);
    const [a] = c.users;
    const w = c.webs[0];
    if (!a || !w?.url) throw new Error("fixture");
    const web = await signIn(w.url, a.email, a.password);
    const doc = structuredClone(workspaceAssistant);
    doc.settings.name = "Heap";
    const policy = doc.nodes.find((n) => n.type === "policy");
    if (policy?.type === "policy") for (const r of policy.data.rules) if (r.tool === "write_file") r.decision = "ALLOW";
    const flowId = (await createFlow(db, a.id, doc)).id;
    await db.$disconnect();
    const statuses = new Map<string, number>();
    const pid = w.pid() ?? 0;
    const rss0 = rssMb(pid);
    const t0 = Date.now();
    await runMany(c, web, flowId, RUNS_A, statuses, pid);
    const fileA = await snapshot(pid, w.url, `after-${RUNS_A}`);
    const rssA = rssMb(pid);
    console.log(`  ${RUNS_A} runs in ${((Date.now() - t0) / 1000).toFixed(0)} s, RSS ${rssA.toFixed(0)} MB (${rss0.toFixed(0)} MB at start)`);
    await runMany(c, web, flowId, RUNS_B - RUNS_A, statuses, pid);
    const fileB = await snapshot(pid, w.url, `after-${RUNS_B}`);
    const rssB = rssMb(pid);
    console.log(`  ${RUNS_B} runs in ${((Date.now() - t0) / 1000).toFixed(0)} s, RSS ${rssB.toFixed(0)} MB; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    const ga = heapGroups(readFileSync(fileA, "utf8"));
    const gb = heapGroups(readFileSync(fileB, "utf8"));
    const [ta, tb] = [heapTotal(ga), heapTotal(gb)];
    const mb = (n: number) => (n / 2 ** 20).toFixed(1);
    const per100 = (tb.bytes - ta.bytes) / ((RUNS_B - RUNS_A) / 100);
    console.log(
      `\nheap after ${RUNS_A} runs ${mb(ta.bytes)} MB, after ${RUNS_B} runs ${mb(tb.bytes)} MB: ${(per100 / 1024).toFixed(0)} KB per 100 runs; RSS ${rssA.toFixed(0)} -> ${rssB.toFixed(0)} MB (${(((rssB - rssA) / (RUNS_B - RUNS_A)) * 100).toFixed(1)} MB per 100 runs)\n`,
    );
    for (const l of heapDiff(ga, gb, 30)) console.log(l);
    if (process.env.HEAP_KEEP === "0") rmSync(OUT, { recursive: true, force: true });
  } finally {
    await c.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
