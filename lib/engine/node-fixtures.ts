import type { LanguageModelV4CallOptions, LanguageModelV4GenerateResult, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { z } from "zod";
import { compileFlowSpec } from "../flow/compile";
import type { FlowDocument } from "../flow/schema";
import { canonicalArgs } from "../policy/canonical";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import type { ConsumeResult, EngineDeps } from "./deps";
import type { Command, Send } from "@langchain/langgraph";
import { newBranch } from "./branch";
import { memoryToolExecutions } from "./tool-executions-memory";
import { type BranchTask, GraphState, type GraphStateValue, type Plan, type PlanStep, type ProposedTool, type StepBranch } from "./state";
import type { RunChunk } from "../events/ui-parts";

/**
 * Test support for the graph's nodes: fake services that record what nodes ask of them, a
 * scripted AI SDK model, and full states built from the graph's own defaults.
 */

const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };

/** A scripted model turn that answers with text. */
export const textTurn = (text: string): LanguageModelV4GenerateResult => ({
  content: [{ type: "text", text }],
  finishReason: { unified: "stop", raw: undefined },
  usage,
  warnings: [],
});

/** A scripted model turn that calls a tool. */
export const toolTurn = (toolName: string, input: unknown, toolCallId = "call_1"): LanguageModelV4GenerateResult => ({
  content: [{ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: "tool-calls", raw: undefined },
  usage,
  warnings: [],
});

/**
 * The stream parts of a scripted turn, as a provider streams it: text word by word (a word and
 * its trailing space each), tool calls whole.
 */
export function streamPartsOf(r: LanguageModelV4GenerateResult): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  r.content.forEach((c, i) => {
    if (c.type === "text") {
      parts.push({ type: "text-start", id: `t${i}` });
      for (const delta of c.text.match(/\s*\S+\s*|\s+/g) ?? []) parts.push({ type: "text-delta", id: `t${i}`, delta });
      parts.push({ type: "text-end", id: `t${i}` });
    } else if (c.type === "tool-call") {
      parts.push(c);
    }
  });
  parts.push({ type: "finish", usage: r.usage, finishReason: r.finishReason });
  return parts;
}

/**
 * A scripted model for the nodes (`doGenerate` as MockLanguageModelV4 takes it): `generateText`
 * gets the turns as scripted, `streamText` gets the same turns streamed ({@link streamPartsOf});
 * every call of either is in `doGenerateCalls`.
 */
export function scriptedModel(doGenerate: Script): MockLanguageModelV4 {
  return streamable(new MockLanguageModelV4({ doGenerate }));
}

/** Gives a mock model that only generates a `doStream` that streams what it generates ({@link streamPartsOf}). */
export function streamable(model: MockLanguageModelV4): MockLanguageModelV4 {
  model.doStream = async (opts) => {
    const r = await model.doGenerate(opts);
    const parts = streamPartsOf(r);
    return {
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        start(controller) {
          for (const p of parts) controller.enqueue(p);
          controller.close();
        },
      }),
    };
  };
  return model;
}

/** Fake services plus what the nodes did with them. */
export interface FakeDeps extends EngineDeps {
  model: MockLanguageModelV4;
  audits: { threadId: string; action: string; tool?: string }[];
  /** Keys of the keyed audit records written (thread:key). */
  auditKeys: Set<string>;
  /** The in-memory twin of the tool execution records. */
  executions: ReturnType<typeof memoryToolExecutions>;
  created: Parameters<EngineDeps["approvals"]["create"]>[0][];
  consumed: Parameters<EngineDeps["approvals"]["consume"]>[0][];
  rejected: Parameters<EngineDeps["approvals"]["reject"]>[0][];
  ran: { name: string; args: unknown; threadId: string }[];
  consumeResult: ConsumeResult;
  /** Evicted outputs by pointer (the in-memory twin of the EvictedBlob table). */
  stored: Map<string, { threadId: string; content: string }>;
  /** What tools.run returns (default: a short success). */
  toolOutput: string;
  clock: { now: number };
}

const fileInput = z.object({ path: z.string(), content: z.string().optional() });
const SIDE_EFFECT = new Set(["write_file", "delete_file"]);

/** Scripted model turns: a list played in order, or a function of the call. */
export type Script = LanguageModelV4GenerateResult[] | ((opts: LanguageModelV4CallOptions) => PromiseLike<LanguageModelV4GenerateResult>);

/** Builds {@link FakeDeps} for a flow (default: the Workspace assistant) and a scripted model. */
export function fakeDeps(turns: Script = [], doc: FlowDocument = workspaceAssistant): FakeDeps {
  const known = new Set(["list_files", "read_file", "write_file", "delete_file", "rehydrate"]);
  const model = scriptedModel(turns);
  const deps: FakeDeps = {
    model,
    audits: [],
    auditKeys: new Set(),
    executions: memoryToolExecutions(),
    created: [],
    consumed: [],
    rejected: [],
    ran: [],
    consumeResult: { ok: true },
    permission: "user",
    stored: new Map(),
    toolOutput: "",
    clock: { now: Date.UTC(2026, 10, 22, 9, 0, 0) },
    flow: compileFlowSpec(doc, { known: (n) => known.has(n), sideEffect: (n) => SIDE_EFFECT.has(n) }),
    resolveModel: () => ({ model, provider: "mock", modelId: "mock", offline: false }),
    tools: {
      describe: (name) => (known.has(name) ? { description: `${name} tool`, input: fileInput, sideEffect: SIDE_EFFECT.has(name) } : undefined),
      run: async (name, args, threadId) => {
        deps.ran.push({ name, args, threadId });
        const output = deps.toolOutput || `ran ${name}`;
        return { status: "success", output, sizeChars: output.length, durationMs: 1 };
      },
    },
    approvals: {
      create: async (input) => {
        deps.created.push(input);
        return { id: `apv_${deps.created.length}xxxxxx`, token: "tok_abcdefgh", expiresAt: new Date(deps.clock.now + 900_000).toISOString() };
      },
      consume: async (input) => {
        deps.consumed.push(input);
        return deps.consumeResult;
      },
      reject: async (input) => {
        deps.rejected.push(input);
        return { by: input.userId };
      },
    },
    blobs: {
      put: async (threadId, _tool, _id, content) => {
        const pointer = `blob:b${deps.stored.size + 1}xxxxx`;
        deps.stored.set(pointer, { threadId, content });
        return pointer;
      },
      read: async (threadId, pointer) => {
        const b = deps.stored.get(pointer);
        return b && b.threadId === threadId ? { content: b.content, sizeChars: b.content.length } : null;
      },
    },
    audit: async (threadId, record) => {
      // Keyed records are written once, as the AuditEntry table's unique key does.
      if (record.key && deps.auditKeys.has(`${threadId}:${record.key}`)) return;
      if (record.key) deps.auditKeys.add(`${threadId}:${record.key}`);
      deps.audits.push({ threadId, action: record.action, ...(record.tool ? { tool: record.tool } : {}) });
    },
    now: () => deps.clock.now,
  };
  return deps;
}

/** A full graph state: the annotation's defaults, then `overrides`. */
export function baseState(overrides: Partial<GraphStateValue> = {}): GraphStateValue {
  const defaults = Object.fromEntries(
    Object.entries(GraphState.spec).map(([key, channel]) => {
      const c = channel as unknown as { initialValueFactory?: () => unknown; value?: unknown };
      return [key, typeof c.initialValueFactory === "function" ? c.initialValueFactory() : c.value];
    }),
  ) as unknown as GraphStateValue;
  return { ...defaults, thread_id: "thread-1", user_id: "user-1", ...overrides };
}

/** A plan step (pending unless overridden). */
export function step(index: number, overrides: Partial<PlanStep> = {}): PlanStep {
  return {
    id: `s${index}`,
    index,
    agent_id: "assistant",
    task: `Task ${index}`,
    expected_output: "",
    depends_on: [],
    status: "pending",
    tries: 0,
    max_tries: 3,
    result: null,
    error: null,
    started_at: null,
    ended_at: null,
    ...overrides,
  };
}

/** An executing plan of the given steps. */
export function plan(steps: PlanStep[], overrides: Partial<Plan> = {}): Plan {
  const at = "2026-11-22T09:00:00.000Z";
  return {
    id: "plan-1",
    query: "Summarize notes.md into summary.md",
    status: "executing",
    steps,
    current_step_index: 0,
    summary: null,
    failure_reason: null,
    created_at: at,
    updated_at: at,
    ...overrides,
  };
}

/** A proposed tool call with its real canonical form and hash. */
export function proposal(name: string, args: unknown, id = "call_1-abcd1234"): ProposedTool {
  const c = canonicalArgs(args);
  return { name, args, canonical_args: c.canonical, args_hash: c.hash, tool_call_id: id };
}

/** A runnable config whose custom stream writer records chunks. */
export function recorder(): { config: { writer: (c: unknown) => void }; chunks: RunChunk[] } {
  const chunks: RunChunk[] = [];
  return { chunks, config: { writer: (c) => chunks.push(c as RunChunk) } };
}

/** The Assistant's identity in the Workspace assistant template. */
export const assistantAgent = { id: "assistant", name: "Assistant", icon: "📁", color: "#2f7d5b" };

/** A branch task for step s0 of a one-step plan (in progress), with branch overrides. */
export function branchTask(overrides: Partial<StepBranch> = {}, p: Plan = plan([step(0, { status: "in_progress", tries: 1, task: "Read notes.md" })])): BranchTask {
  return { thread_id: "thread-1", user_id: "user-1", plan: p, branch: { ...newBranch("s0", assistantAgent), ...overrides } };
}

/** Where a Command goes: node names, with the payload of each `Send`. */
export function targets(cmd: Command): { node: string; arg?: BranchTask }[] {
  return [cmd.goto].flat().map((g) => (typeof g === "string" ? { node: g } : { node: (g as Send).node, arg: (g as Send).args as BranchTask }));
}

/** The branch a Command mirrors into the state for step `id`. */
export function mirrored(cmd: Command, id = "s0"): StepBranch | undefined {
  return ((cmd.update ?? {}) as { branches?: Record<string, StepBranch> }).branches?.[id];
}
