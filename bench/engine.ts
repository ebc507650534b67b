/**
 * Engine overhead and checkpoint size. In one process, each run on its own
 * PrismaCheckpointSaver over a fresh SQLite file (createTestDb):
 * 1. The same scripted run of 100 ALLOWed tool calls (10 plan steps x 10 read_file calls, a
 *    scripted MockLanguageModelV4, fake tools that never touch the disk) through
 *    a. the compiled flow (buildGraph over the Workspace assistant, maxIterations raised),
 *    b. a hand-written StateGraph with the same super-steps per call as the compiled flow
 *       (supervisor -> executor -> risk gate -> tools -> interpreter), official pieces only,
 *    c. the minimal hand-written agent loop (agent <-> tools, conditional edge back).
 *    Prints wall times (median of ROUNDS interleaved rounds), checkpoints written, and compiled / hand-written (goal <= 1.10
 *    against b, the same super-steps; c shows what a 2-node loop costs for scale).
 *    Every side runs once untimed first (its own database) so module loading and JIT
 *    warm-up are not charged to whichever side goes first.
 * 2. The largest checkpoint while a tool returns 5,000,000-char outputs (5 calls): for each
 *    checkpoint row, its stored bytes plus the stored CheckpointBlob values of the channel
 *    versions it names; the max over the thread. Compiled flow (evicts long outputs to
 *    deps.blobs) vs the minimal loop (keeps them in its messages). Goal < 64 KB.
 * Run: npm run bench:engine
 */
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { Annotation, type BaseCheckpointSaver, Command, END, START, StateGraph } from "@langchain/langgraph";
import type { Checkpoint } from "@langchain/langgraph-checkpoint";
import { generateText, type ModelMessage, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { PrismaCheckpointSaver } from "../lib/db/checkpointer";
import { createTestDb, type TestDb } from "../lib/db/test-db";
import { buildGraph } from "../lib/engine/graph";
import { fakeDeps, streamable, textTurn, toolTurn } from "../lib/engine/node-fixtures";
import { workspaceAssistant } from "../templates/workspace-assistant";

const STEPS = 10;
const CALLS_PER_STEP = 10;
const CALLS = STEPS * CALLS_PER_STEP;
const BIG_CALLS = 5;
const BIG = 5_000_000;
const SHORT = "ran read_file";
const THREAD = "bench";
const ROUNDS = 3;

/** The Workspace assistant with room for 100 calls (the default limit is 50 iterations). */
const doc = { ...workspaceAssistant, settings: { ...workspaceAssistant.settings, limits: { ...workspaceAssistant.settings.limits, maxIterations: 10_000, timeoutMs: 3_600_000 } } };

interface Run {
  ms: number;
  calls: number;
  checkpoints: number;
  /** Largest checkpoint: stored bytes of the row plus the blobs of the versions it names. */
  largest: number;
}

/** The compiled flow's model: a plan of `steps` chained steps, each making `perStep` read_file calls. */
function flowScript(steps: number, perStep: number) {
  return async (opts: LanguageModelV4CallOptions) => {
    const text = JSON.stringify(opts.prompt);
    if (text.includes("[phylactery:planner]")) {
      return toolTurn("create_plan", {
        steps: Array.from({ length: steps }, (_, i) => ({ agent_id: "assistant", task: `Read part ${i}`, expected_output: "its contents", depends_on: i === 0 ? [] : [i - 1] })),
      });
    }
    if (text.includes("[phylactery:executor]")) {
      const done = opts.prompt.filter((m) => m.role === "tool").length;
      return done < perStep ? toolTurn("read_file", { path: `notes-${done}.md` }, `call_${done}`) : textTurn("step done");
    }
    return textTurn("All done.");
  };
}

/** (a) The compiled flow on `saver`; returns wall time and tool runs. */
async function compiledRun(saver: BaseCheckpointSaver, steps: number, perStep: number, output: string): Promise<{ ms: number; calls: number }> {
  const deps = fakeDeps(flowScript(steps, perStep), doc);
  deps.toolOutput = output;
  const graph = buildGraph(deps, saver);
  const t = performance.now();
  await graph.invoke(
    { messages: [{ role: "user", content: "Summarize notes.md" }], thread_id: THREAD, user_id: "u", run_started_at: Date.now() },
    { configurable: { thread_id: THREAD }, recursionLimit: 10_000 },
  );
  return { ms: performance.now() - t, calls: deps.ran.length };
}

const HandState = Annotation.Root({
  messages: Annotation<ModelMessage[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  step: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
  pending: Annotation<{ id: string; name: string; input: unknown } | null>({ reducer: (_a, b) => b, default: () => null }),
  result: Annotation<string | null>({ reducer: (_a, b) => b, default: () => null }),
});

/** A scripted model that makes `perStep` read_file calls, then answers (counting tool results since its last answer). */
function handModel(perStep: number): MockLanguageModelV4 {
  return streamable(
    new MockLanguageModelV4({
      doGenerate: async (opts: LanguageModelV4CallOptions) => {
        let since = 0;
        for (const m of opts.prompt) {
          if (m.role === "tool") since += 1;
          if (m.role === "assistant" && m.content.some((p) => p.type === "text")) since = 0;
        }
        return since < perStep ? toolTurn("read_file", { path: `notes-${since}.md` }, `call_${since}`) : textTurn("step done");
      },
    }),
  );
}

const readTool = { read_file: tool({ description: "Reads a file of the workspace.", inputSchema: z.object({ path: z.string() }) }) };

/** The fake tool of the hand-written graphs: counts its runs, returns `output`. */
function fakeTool(output: string) {
  const ran = { calls: 0 };
  const run = async (_input: unknown): Promise<string> => {
    ran.calls += 1;
    return output;
  };
  return { ran, run };
}

const userTurn: ModelMessage[] = [{ role: "user", content: "Summarize notes.md" }];

function toolResult(id: string, value: string): ModelMessage {
  return { role: "tool", content: [{ type: "tool-result", toolCallId: id, toolName: "read_file", output: { type: "text", value } }] };
}

/** (b) Hand-written, the compiled flow's super-steps per call: supervisor, executor, risk gate, tools, interpreter. */
function handSameSteps(saver: BaseCheckpointSaver, steps: number, perStep: number, fake: ReturnType<typeof fakeTool>) {
  const model = handModel(perStep);
  return new StateGraph(HandState)
    .addNode(
      "supervisor",
      (s) => {
        const step = s.result === "step done" ? s.step + 1 : s.step;
        return new Command({ goto: step >= steps ? END : "executor", update: { step, result: null } });
      },
      { ends: ["executor", END] },
    )
    .addNode(
      "executor",
      async (s) => {
        const res = await generateText({ model, messages: [...userTurn, ...s.messages], tools: readTool });
        const call = res.toolCalls[0];
        if (!call) return new Command({ goto: "supervisor", update: { result: "step done", messages: [{ role: "assistant", content: [{ type: "text", text: res.text }] }] } });
        const assistant: ModelMessage = { role: "assistant", content: [{ type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input: call.input }] };
        return new Command({ goto: "risk_gate", update: { pending: { id: call.toolCallId, name: call.toolName, input: call.input }, messages: [assistant] } });
      },
      { ends: ["risk_gate", "supervisor"] },
    )
    .addNode("risk_gate", () => ({}))
    .addNode("tools", async (s) => ({ result: await fake.run(s.pending?.input) }))
    .addNode("interpreter", (s) => ({ pending: null, result: null, messages: [toolResult(s.pending?.id ?? "", s.result ?? "")] }))
    .addEdge(START, "supervisor")
    .addEdge("risk_gate", "tools")
    .addEdge("tools", "interpreter")
    .addEdge("interpreter", "supervisor")
    .compile({ checkpointer: saver });
}

/** (c) The minimal hand-written agent loop: agent <-> tools, every output kept in the messages (no eviction). */
function handLoop(saver: BaseCheckpointSaver, calls: number, fake: ReturnType<typeof fakeTool>) {
  const model = handModel(calls);
  return new StateGraph(HandState)
    .addNode("agent", async (s) => {
      const res = await generateText({ model, messages: [...userTurn, ...s.messages], tools: readTool });
      const call = res.toolCalls[0];
      if (!call) return { pending: null, messages: [{ role: "assistant", content: [{ type: "text", text: res.text }] }] };
      return {
        pending: { id: call.toolCallId, name: call.toolName, input: call.input },
        messages: [{ role: "assistant", content: [{ type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input: call.input }] }],
      };
    })
    .addNode("tools", async (s) => ({ messages: [toolResult(s.pending?.id ?? "", await fake.run(s.pending?.input))] }))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (s) => (s.pending ? "tools" : END), ["tools", END])
    .addEdge("tools", "agent")
    .compile({ checkpointer: saver });
}

/** Times a hand-written graph's run of the thread. */
async function handRun(graph: { invoke: (input: object, config: object) => Promise<unknown> }, fake: ReturnType<typeof fakeTool>): Promise<{ ms: number; calls: number }> {
  const t = performance.now();
  await graph.invoke({}, { configurable: { thread_id: THREAD }, recursionLimit: 10_000 });
  return { ms: performance.now() - t, calls: fake.ran.calls };
}

/**
 * Largest checkpoint of the thread, in stored bytes: the `Checkpoint.checkpoint` column
 * plus `length(CheckpointBlob.value)` of every channel version the checkpoint names.
 */
async function largestCheckpoint(t: TestDb, saver: PrismaCheckpointSaver): Promise<number> {
  const blobs = await t.db.$queryRaw<{ checkpointNs: string; channel: string; version: string; n: number | bigint }[]>`
    SELECT "checkpointNs", "channel", "version", length("value") AS n FROM "CheckpointBlob" WHERE "threadId" = ${THREAD}`;
  const size = new Map(blobs.map((b) => [JSON.stringify([b.checkpointNs, b.channel, b.version]), Number(b.n)]));
  const rows = await t.db.checkpoint.findMany({ where: { threadId: THREAD }, select: { checkpointNs: true, type: true, checkpoint: true } });
  let max = 0;
  for (const row of rows) {
    const cp = (await saver.serde.loadsTyped(row.type, row.checkpoint)) as Checkpoint;
    let bytes = row.checkpoint.length;
    for (const [channel, version] of Object.entries(cp.channel_versions)) bytes += size.get(JSON.stringify([row.checkpointNs, channel, String(version)])) ?? 0;
    max = Math.max(max, bytes);
  }
  return max;
}

/** Runs `fn` on a fresh database; returns its result with the thread's checkpoint count and largest checkpoint. */
async function onFreshDb(fn: (saver: BaseCheckpointSaver) => Promise<{ ms: number; calls: number }>): Promise<Run> {
  const t = await createTestDb();
  try {
    const saver = new PrismaCheckpointSaver(t.db);
    const r = await fn(saver);
    return { ...r, checkpoints: await t.db.checkpoint.count({ where: { threadId: THREAD } }), largest: await largestCheckpoint(t, saver) };
  } finally {
    await t.cleanup();
  }
}

/** The run of median wall time (`runs` non-empty). */
function median(runs: Run[]): Run {
  const sorted = [...runs].sort((x, y) => x.ms - y.ms);
  const mid = sorted[Math.floor(sorted.length / 2)];
  if (!mid) throw new Error("no runs");
  return mid;
}

function expectCalls(label: string, r: Run, want: number): Run {
  if (r.calls !== want) throw new Error(`${label} ran ${r.calls} tool calls, expected ${want}`);
  return r;
}

const compiled = (steps: number, perStep: number, output: string) => onFreshDb((s) => compiledRun(s, steps, perStep, output));
const sameSteps = (steps: number, perStep: number, output: string) =>
  onFreshDb((s) => {
    const fake = fakeTool(output);
    return handRun(handSameSteps(s, steps, perStep, fake), fake);
  });
const loop = (calls: number, output: string) =>
  onFreshDb((s) => {
    const fake = fakeTool(output);
    return handRun(handLoop(s, calls, fake), fake);
  });

async function main(): Promise<void> {
  // Warm-up: each side once, untimed, on its own database.
  await compiled(2, 2, SHORT);
  await sameSteps(2, 2, SHORT);
  await loop(4, SHORT);

  // Rounds interleaved (a, b, c, a, b, c, ...) so load on the machine hits every side alike; medians reported.
  const runs: { a: Run[]; b: Run[]; c: Run[] } = { a: [], b: [], c: [] };
  for (let i = 0; i < ROUNDS; i++) {
    runs.a.push(expectCalls("compiled flow", await compiled(STEPS, CALLS_PER_STEP, SHORT), CALLS));
    runs.b.push(expectCalls("hand-written, same super-steps", await sameSteps(STEPS, CALLS_PER_STEP, SHORT), CALLS));
    runs.c.push(expectCalls("hand-written loop", await loop(CALLS, SHORT), CALLS));
  }
  const [a, b, c] = [median(runs.a), median(runs.b), median(runs.c)];
  const bigA = expectCalls("compiled flow, 5 MB outputs", await compiled(1, BIG_CALLS, "x".repeat(BIG)), BIG_CALLS);
  const bigC = expectCalls("hand-written loop, 5 MB outputs", await loop(BIG_CALLS, "x".repeat(BIG)), BIG_CALLS);

  const cols = (label: string, ...cells: string[]) => console.log(`${label.padEnd(13)}${(cells[0] ?? "").padStart(14)}${(cells[1] ?? "").padStart(30)}${(cells[2] ?? "").padStart(24)}`);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`workload: ${CALLS} tool calls (${STEPS} steps x ${CALLS_PER_STEP} read_file), scripted model, fake tools, PrismaCheckpointSaver on SQLite`);
  console.log(`time: median of ${ROUNDS} interleaved rounds, each on a fresh database, after one warm-up run per side`);
  cols("", "compiled flow", "hand-written, same steps (b)", "hand-written loop (c)");
  const spread = (rs: Run[]) => rs.map((r) => r.ms.toFixed(0)).join(" / ");
  cols("time (ms)", a.ms.toFixed(0), b.ms.toFixed(0), c.ms.toFixed(0));
  cols("  rounds", spread(runs.a), spread(runs.b), spread(runs.c));
  cols("checkpoints", String(a.checkpoints), String(b.checkpoints), String(c.checkpoints));
  cols("largest", kb(a.largest), kb(b.largest), kb(c.largest));
  console.log(`ratio compiled / hand-written, same super-steps (b): ${(a.ms / b.ms).toFixed(2)} (goal <= 1.10)`);
  console.log(`ratio compiled / hand-written agent loop (c):        ${(a.ms / c.ms).toFixed(2)} (${(a.checkpoints / c.checkpoints).toFixed(1)}x its checkpoints)`);
  console.log(`largest checkpoint with ${BIG_CALLS} tool outputs of ${BIG / 1_000_000} MB: compiled flow ${kb(bigA.largest)} (goal < 64 KB); hand-written loop without eviction ${kb(bigC.largest)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
