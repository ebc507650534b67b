/**
 * Engine overhead and checkpoint size (issue 3). In one process, on PrismaCheckpointSaver
 * (a fresh SQLite file each):
 * 1. the same scripted run of 100 tool calls (10 steps x 10 read_file calls, a scripted
 *    model, fake tools) through the compiled flow (lib/engine/graph.ts) and through a
 *    hand-written StateGraph with the same hops per call (executor, risk gate, tools,
 *    interpreter, supervisor) written with the official pieces only; also a minimal
 *    hand-written agent loop (agent <-> tools) for scale. Prints times and the ratio
 *    compiled / hand-written (goal <= 1.10).
 * 2. the largest checkpoint (the deserialized state of each checkpoint of the thread) while
 *    a tool returns 5 MB outputs: compiled flow (evicts) vs the hand-written loop (keeps the
 *    output in its state). Goal < 64 KB.
 * Run: npm run bench:engine
 */
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { Annotation, type BaseCheckpointSaver, Command, END, START, StateGraph } from "@langchain/langgraph";
import { generateText, type ModelMessage, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { PrismaCheckpointSaver } from "../lib/db/checkpointer";
import { createTestDb } from "../lib/db/test-db";
import { buildGraph } from "../lib/engine/graph";
import { fakeDeps, textTurn, toolTurn } from "../lib/engine/node-fixtures";
import { workspaceAssistant } from "../templates/workspace-assistant";

const STEPS = 10;
const CALLS_PER_STEP = 10;
const BIG = 5_000_000;

const doc = { ...workspaceAssistant, settings: { ...workspaceAssistant.settings, limits: { maxIterations: 10_000, timeoutMs: 3_600_000 } } };

/** The scripted model of the compiled flow: a chain of steps, each making N tool calls. */
function flowScript(callsPerStep: number) {
  return async (opts: LanguageModelV4CallOptions) => {
    const text = JSON.stringify(opts.prompt);
    if (text.includes("[phylactery:planner]")) {
      const steps = Array.from({ length: STEPS }, (_, i) => ({ agent_id: "assistant", task: `Read part ${i}`, expected_output: "", depends_on: i === 0 ? [] : [i - 1] }));
      return toolTurn("create_plan", { steps });
    }
    if (text.includes("[phylactery:executor]")) {
      const done = opts.prompt.filter((m) => m.role === "tool").length;
      return done < callsPerStep ? toolTurn("read_file", { path: `notes-${done}.md` }, `call_${done}`) : textTurn("step done");
    }
    return textTurn("All done.");
  };
}

async function compiledRun(saver: BaseCheckpointSaver, callsPerStep: number, output?: string): Promise<{ ms: number; calls: number }> {
  const deps = fakeDeps(flowScript(callsPerStep), doc);
  if (output) deps.toolOutput = output;
  const graph = buildGraph(deps, saver);
  const t = performance.now();
  await graph.invoke(
    { messages: [{ role: "user", content: "Summarize notes.md" }], thread_id: "bench", user_id: "u", run_started_at: Date.now() },
    { configurable: { thread_id: "bench" }, recursionLimit: 100_000 },
  );
  return { ms: performance.now() - t, calls: deps.ran.length };
}

const HandState = Annotation.Root({
  messages: Annotation<ModelMessage[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
  step: Annotation<number>({ reducer: (_a, b) => b, default: () => 0 }),
  pending: Annotation<{ id: string; name: string; input: unknown } | null>({ reducer: (_a, b) => b, default: () => null }),
  result: Annotation<string | null>({ reducer: (_a, b) => b, default: () => null }),
});

/** A model that calls read_file N times per step, then answers (counts tool results since the last answer). */
function handModel(callsPerStep: number) {
  return new MockLanguageModelV4({
    doGenerate: async (opts: LanguageModelV4CallOptions) => {
      let since = 0;
      for (const m of opts.prompt) {
        if (m.role === "tool") since += 1;
        if (m.role === "assistant" && m.content.some((p) => p.type === "text")) since = 0;
      }
      return since < callsPerStep ? toolTurn("read_file", { path: `notes-${since}.md` }, `call_${since}`) : textTurn("step done");
    },
  });
}

const readTool = { read_file: tool({ description: "read", inputSchema: z.object({ path: z.string() }) }) };
const runFake = (output: string) => Promise.resolve(output);

/** Hand-written graph with the compiled flow's hops per call: executor, risk gate, tools, interpreter, supervisor. */
function handSameTopology(saver: BaseCheckpointSaver, callsPerStep: number, output: string) {
  const model = handModel(callsPerStep);
  return new StateGraph(HandState)
    .addNode(
      "supervisor",
      (s) => new Command({ goto: s.step >= STEPS ? END : "executor", update: s.result === "step done" ? { step: s.step + 1, result: null } : {} }),
      { ends: ["executor", END] },
    )
    .addNode(
      "executor",
      async (s) => {
        const res = await generateText({ model, messages: s.messages.length ? s.messages : [{ role: "user", content: "go" }], tools: readTool });
        const call = res.toolCalls[0];
        if (!call) return new Command({ goto: "supervisor", update: { result: "step done", messages: [{ role: "assistant", content: [{ type: "text", text: res.text }] }] } });
        const assistant: ModelMessage = { role: "assistant", content: [{ type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input: call.input }] };
        return new Command({ goto: "risk_gate", update: { pending: { id: call.toolCallId, name: call.toolName, input: call.input }, messages: [assistant] } });
      },
      { ends: ["risk_gate", "supervisor"] },
    )
    .addNode("risk_gate", () => ({}))
    .addNode("tools", async () => ({ result: await runFake(output) }))
    .addNode("interpreter", (s) => ({
      pending: null,
      messages: [{ role: "tool", content: [{ type: "tool-result", toolCallId: s.pending?.id ?? "", toolName: "read_file", output: { type: "text", value: s.result ?? "" } }] }],
      result: null,
    }))
    .addEdge(START, "supervisor")
    .addEdge("risk_gate", "tools")
    .addEdge("tools", "interpreter")
    .addEdge("interpreter", "supervisor")
    .compile({ checkpointer: saver });
}

/** Minimal hand-written agent loop: agent <-> tools, the tool output kept in the state. */
function handMinimal(saver: BaseCheckpointSaver, calls: number, output: string) {
  const model = handModel(calls);
  return new StateGraph(HandState)
    .addNode("agent", async (s) => {
      const res = await generateText({ model, messages: s.messages.length ? s.messages : [{ role: "user", content: "go" }], tools: readTool });
      const call = res.toolCalls[0];
      if (!call) return { pending: null };
      return { pending: { id: call.toolCallId, name: call.toolName, input: call.input }, messages: [{ role: "assistant", content: [{ type: "tool-call", toolCallId: call.toolCallId, toolName: call.toolName, input: call.input }] }] };
    })
    .addNode("tools", async (s) => ({
      messages: [{ role: "tool", content: [{ type: "tool-result", toolCallId: s.pending?.id ?? "", toolName: "read_file", output: { type: "text", value: await runFake(output) } }] }],
    }))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", (s) => (s.pending ? "tools" : END))
    .addEdge("tools", "agent")
    .compile({ checkpointer: saver });
}

const handConfig = { configurable: { thread_id: "bench" }, recursionLimit: 100_000 };

async function timeHand(run: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await run();
  return performance.now() - t;
}

/** Largest deserialized checkpoint of the thread, bytes of its JSON. */
async function largestCheckpoint(saver: BaseCheckpointSaver): Promise<number> {
  let max = 0;
  for await (const t of saver.list({ configurable: { thread_id: "bench" } })) {
    max = Math.max(max, Buffer.byteLength(JSON.stringify(t.checkpoint)));
  }
  return max;
}

async function withSaver<T>(fn: (saver: PrismaCheckpointSaver, count: () => Promise<number>) => Promise<T>): Promise<T> {
  const t = await createTestDb();
  try {
    return await fn(new PrismaCheckpointSaver(t.db), () => t.db.checkpoint.count({ where: { threadId: "bench" } }));
  } finally {
    await t.cleanup();
  }
}

async function main(): Promise<void> {
  const calls = STEPS * CALLS_PER_STEP;
  const out = "a short tool output";
  const compiled = await withSaver(async (s, count) => ({ ...(await compiledRun(s, CALLS_PER_STEP, out)), checkpoints: await count() }));
  if (compiled.calls !== calls) throw new Error(`compiled flow ran ${compiled.calls} tool calls, expected ${calls}`);
  const same = await withSaver(async (s, count) => ({ ms: await timeHand(() => handSameTopology(s, CALLS_PER_STEP, out).invoke({}, handConfig)), checkpoints: await count() }));
  const minimal = await withSaver(async (s, count) => ({ ms: await timeHand(() => handMinimal(s, calls, out).invoke({}, handConfig)), checkpoints: await count() }));

  const bigCompiled = await withSaver(async (s) => {
    await compiledRun(s, 1, "x".repeat(BIG));
    return largestCheckpoint(s);
  });
  const bigHand = await withSaver(async (s) => {
    await handMinimal(s, 3, "x".repeat(BIG)).invoke({}, handConfig);
    return largestCheckpoint(s);
  });

  const row = (label: string, a: string, b: string, c: string, d = "") => console.log(`${label.padEnd(22)}${a.padStart(14)}${b.padStart(22)}${c.padStart(20)}${d.padStart(14)}`);
  console.log(`workload: ${calls} tool calls (${STEPS} steps x ${CALLS_PER_STEP}), scripted model, fake tools, PrismaCheckpointSaver on SQLite`);
  row("", " compiled flow", " hand-written, same hops", " hand-written loop", " ratio");
  row("time (ms)", compiled.ms.toFixed(0), same.ms.toFixed(0), minimal.ms.toFixed(0), (compiled.ms / same.ms).toFixed(2));
  row("checkpoints written", String(compiled.checkpoints), String(same.checkpoints), String(minimal.checkpoints));
  console.log(`ratio compiled / hand-written with the same hops: ${(compiled.ms / same.ms).toFixed(2)} (goal <= 1.10)`);
  console.log(
    `largest checkpoint with ${BIG / 1_000_000} MB tool outputs: compiled flow ${(bigCompiled / 1024).toFixed(1)} KB (goal < 64 KB); hand-written loop without eviction ${(bigHand / 1024).toFixed(0)} KB`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
