/**
 * Approval latency: server-side time from an approve decision to the tool
 * starting, p50 and p99 over APPROVALS approvals on SQLite. Goal (issue 23, docs/benchmarks.md): p50 <= 15 ms, p99 <= 50 ms.
 *
 * Phylactery: each approval is a thread of the Workspace assistant that waits on a
 * write_file challenge (the offline model, directed mode, "Write out-N.md with content: hi"
 * so the plan is one step). The clock starts when `prepareRun` receives the decision (what
 * the route handler calls once the body is parsed) and stops when the run yields the
 * tool's "running" part, which the Tools node emits right before it calls the tool. In
 * between: the thread's access and role checks, the checkpoint read, the seven-factor check
 * and the conditional update, then LangGraph resuming the interrupt, the ApprovalHandler's
 * second check and consume, all on a real SQLite file through Prisma.
 *
 * Official pieces, same run: a two-node StateGraph (interrupt node -> tool node) on the
 * official SqliteSaver; the clock runs from `graph.stream(new Command({ resume }))` to the
 * tool node starting. The ratio says what our checks and PrismaCheckpointSaver cost over
 * LangGraph's bare resume.
 *
 * Run: npm run bench:approval
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Annotation, Command, END, interrupt, START, StateGraph } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { collect, engineFixture, lastData } from "../lib/runs/test-helpers";

const APPROVALS = Number(process.env.BENCH_APPROVALS ?? 200);
const WARMUP = 10;

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)] ?? Number.NaN;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function phylactery(): Promise<number[]> {
  const f = await engineFixture();
  const times: number[] = [];
  try {
    for (let i = 0; i < APPROVALS + WARMUP; i++) {
      const task = `Write out-${i}.md with content: hi`;
      const threadId = await f.newThread(task);
      const started = await collect(await f.prepare(threadId, { kind: "message", text: task, agentId: "assistant" }));
      const approval = lastData(started, "data-approval")?.data;
      if (!approval) throw new Error(`run ${i} did not wait for approval: ${started.map((c) => c.type).join(", ")}`);
      const t0 = performance.now();
      const run = await f.prepare(threadId, { kind: "decision", decision: "approve", approvalId: approval.approvalId, token: approval.token, argsHash: approval.argsHash });
      let t1 = 0;
      for await (const chunk of run.stream()) {
        if (!t1 && chunk.type === "data-tool" && chunk.data.status === "running") t1 = performance.now();
      }
      if (!t1) throw new Error(`approval ${i}: the tool never started`);
      if (i >= WARMUP) times.push(t1 - t0);
    }
  } finally {
    await f.cleanup();
  }
  return times;
}

async function official(): Promise<number[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "phylactery-bench-"));
  const saver = SqliteSaver.fromConnString(path.join(dir, "official.db"));
  let toolStarted = 0;
  const State = Annotation.Root({ args: Annotation<Record<string, unknown>>(), done: Annotation<boolean>() });
  const graph = new StateGraph(State)
    .addNode("await_approval", (s) => {
      const ok = interrupt<Record<string, unknown>, boolean>({ action: "write_file", args: s.args });
      return { done: !ok };
    })
    .addNode("tools", () => {
      toolStarted = performance.now();
      return { done: true };
    })
    .addEdge(START, "await_approval")
    .addConditionalEdges("await_approval", (s) => (s.done ? END : "tools"))
    .addEdge("tools", END)
    .compile({ checkpointer: saver });
  const times: number[] = [];
  try {
    for (let i = 0; i < APPROVALS + WARMUP; i++) {
      const config = { configurable: { thread_id: `t${i}` } };
      await graph.invoke({ args: { path: `out-${i}.md`, content: "hi" }, done: false }, config);
      const t0 = performance.now();
      for await (const _ of await graph.stream(new Command({ resume: true }), config)) {
        // drain
      }
      if (i >= WARMUP) times.push(toolStarted - t0);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return times;
}

async function main(): Promise<void> {
  console.log(`approval latency: ${APPROVALS} approvals each (after ${WARMUP} untimed), SQLite, one process`);
  const ours = (await phylactery()).sort((a, b) => a - b);
  const theirs = (await official()).sort((a, b) => a - b);
  const rows = [
    ["Phylactery (checks + PrismaCheckpointSaver)", percentile(ours, 50), percentile(ours, 99)],
    ["official StateGraph + SqliteSaver, bare resume", percentile(theirs, 50), percentile(theirs, 99)],
  ] as const;
  for (const [name, p50, p99] of rows) console.log(`${name.padEnd(48)} p50 ${fmt(p50).padStart(9)}  p99 ${fmt(p99).padStart(9)}`);
  const [p50, p99] = [percentile(ours, 50), percentile(ours, 99)];
  console.log(`ratio Phylactery / official: p50 ${(p50 / percentile(theirs, 50)).toFixed(1)}x, p99 ${(p99 / percentile(theirs, 99)).toFixed(1)}x`);
  console.log(`goal p50 <= 15 ms: ${p50 <= 15 ? "met" : "NOT met"}; goal p99 <= 50 ms: ${p99 <= 50 ? "met" : "NOT met"}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
