import type { UIMessage } from "ai";
import { z } from "zod";
import { RUN_STATUSES } from "../run-status";

/**
 * The run stream's custom data parts (docs/architecture.md#events-and-telemetry): one zod schema each.
 * The engine emits them through LangGraph's custom stream writer; the run service stores
 * each as a RunEvent and forwards it to the browser as an AI SDK UI message chunk
 * `{ type: "data-<name>", id, data }`. A later chunk with the same id replaces the part, so
 * a step or a tool call updates in place.
 */

const StepView = z.object({
  id: z.string(),
  index: z.number().int(),
  task: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  status: z.enum(["pending", "in_progress", "completed", "failed", "skipped", "blocked", "rejected"]),
  tries: z.number().int(),
  /** Ids of the steps this one waits for; steps with none pending run side by side. */
  dependsOn: z.array(z.string()).optional(),
  result: z.string().nullable(),
  error: z.string().nullable(),
  /** Tokens the step used so far. */
  usage: z.object({ inputTokens: z.number().int(), outputTokens: z.number().int() }).nullable().optional(),
});

export const dataSchemas = {
  /** The plan with every step's status (plan_generated / plan_completed). */
  plan: z.object({
    planId: z.string(),
    status: z.enum(["planning", "executing", "completed", "incomplete", "failed", "cancelled"]),
    steps: z.array(StepView),
  }),
  /** One step's start and end (plan_step_started / plan_step_completed). */
  step: StepView.extend({ event: z.enum(["plan_step_started", "plan_step_completed", "plan_step_failed"]) }),
  /** Supervisor delegation (agent_handoff). */
  handoff: z.object({ from: z.string(), to: z.string(), agentName: z.string(), icon: z.string(), color: z.string(), reason: z.string(), stepId: z.string().nullable() }),
  /** A tool call from proposal to result (tool_call_proposed, risk_decision, tool_result). */
  tool: z.object({
    toolCallId: z.string(),
    /** The agent that proposed the call (its branch's identity); absent in events stored before it was added. */
    agentId: z.string().nullable().optional(),
    toolName: z.string(),
    args: z.unknown(),
    argsHash: z.string(),
    status: z.enum(["proposed", "allowed", "blocked", "awaiting_approval", "rejected", "running", "done", "error"]),
    decision: z.enum(["ALLOW", "AUTH_REQUIRED", "BLOCKED"]).nullable(),
    rule: z.string().nullable(),
    /** Risk level and reason of the PolicyDecision (docs/architecture.md#policies). */
    risk: z.enum(["low", "medium", "high", "critical"]).optional(),
    reason: z.string().optional(),
    output: z.string().nullable(),
    /** Set when the output was evicted to blob storage (docs/architecture.md#retries-limits-and-eviction). */
    evicted: z.object({ pointer: z.string(), sizeChars: z.number().int(), rehydrationAllowed: z.boolean() }).nullable().optional(),
  }),
  /** An approval card (approval_required and its later status). */
  approval: z.object({
    approvalId: z.string(),
    toolName: z.string(),
    toolCallId: z.string(),
    canonicalArgs: z.string(),
    argsHash: z.string(),
    token: z.string(),
    expiresAt: z.string(),
    status: z.enum(["pending", "approved", "rejected", "expired", "consumed", "invalid"]),
    /** Risk level and the policy rule that asked for approval (docs/architecture.md#policies), when known. */
    risk: z.enum(["low", "medium", "high", "critical"]).optional(),
    rule: z.string().optional(),
    /** What the interrupt allows (LangGraph HumanInterrupt config). */
    allow: z.object({ accept: z.boolean(), edit: z.boolean(), respond: z.boolean(), ignore: z.boolean() }).optional(),
  }),
  /**
   * A side-effecting call that started but has no recorded outcome after a crash
   * (outcome_unknown; docs/durability.md "Side effects"): a person chooses to run it again
   * or skip it. One part per tool call id; a retried call that dies again is asked about
   * again with the next attempt. The engine emits it `pending`; `retry`, `skipped` and
   * `happened` (someone confirmed it took effect) are what the run view shows once the
   * choice is known.
   */
  outcome: z.object({
    toolCallId: z.string(),
    tool: z.string(),
    /** The exact arguments the call ran with (the object the RiskGate and approver saw). */
    args: z.unknown(),
    /** SHA-256 hex of the RFC 8785 canonical arguments. */
    argsHash: z.string(),
    stepId: z.string().nullable(),
    agentId: z.string(),
    /** The approval that authorised the call, when one did. */
    approvalId: z.string().nullable(),
    /** The attempt whose outcome is unknown, from 1. */
    attempt: z.number().int().positive(),
    /** When that attempt started, ISO-8601. */
    startedAt: z.string(),
    /** The engine's plain-words account (ISO times), for logs and the timeline's tool row. */
    description: z.string(),
    status: z.enum(["pending", "retry", "skipped", "happened"]),
  }),
  /** A lifecycle transition of the run (docs/architecture.md#run-lifecycle), recorded from node updates. */
  lifecycle: z.object({ from: z.string(), to: z.string(), node: z.string(), at: z.string() }),
  /** Run status and which model answered (run_started / run_completed / run_failed). */
  run: z.object({
    runId: z.string(),
    /** The run's W3C trace id (32 hex chars), as in its logs and spans; absent in events stored before it was added. */
    traceId: z.string().optional(),
    status: z.enum(RUN_STATUSES),
    model: z.object({ provider: z.string(), modelId: z.string(), offline: z.boolean() }).nullable(),
    /** The run's structured error (docs/architecture.md#errors); severity and the rest are absent in events stored before they were added. */
    error: z
      .object({
        code: z.string(),
        message: z.string(),
        severity: z.enum(["INFO", "WARNING", "CRITICAL"]).optional(),
        retryable: z.boolean().optional(),
        suggested_action: z.enum(["RETRY", "HALT"]).optional(),
      })
      .nullable(),
    /** Tokens this run used (all model calls), and per model when recorded (docs/models.md "Costs"). */
    usage: z
      .object({
        inputTokens: z.number().int(),
        outputTokens: z.number().int(),
        byModel: z.array(z.object({ provider: z.string(), name: z.string(), modelId: z.string(), inputTokens: z.number().int(), outputTokens: z.number().int() })).optional(),
      })
      .nullable()
      .optional(),
  }),
  /**
   * What memory was injected into an agent's context before a step (the last 20
   * short-term entries and the top 3 long-term facts), shown in the run view.
   */
  memory: z.object({
    stepId: z.string().nullable(),
    agentId: z.string(),
    /** The text the facts were retrieved for (the step's task), chars as given. */
    query: z.string(),
    shortTerm: z.array(z.object({ id: z.string(), agentId: z.string(), action: z.string(), result: z.string(), createdAt: z.string() })),
    facts: z.array(
      z.object({
        id: z.string(),
        content: z.string(),
        tags: z.array(z.string()),
        score: z.number(),
        via: z.array(z.enum(["lexical", "semantic"])),
        source: z.object({ threadId: z.string().nullable(), stepId: z.string().nullable() }),
      }),
    ),
  }),
} as const;

/** Data types of the run's UI messages. */
export type RunDataTypes = { [K in keyof typeof dataSchemas]: z.infer<(typeof dataSchemas)[K]> };

/**
 * Transient data parts of the run stream (docs/runs.md "Streaming"): written with
 * `transient: true`, so the AI SDK hands them to `useChat`'s `onData` and never adds them to a
 * message; never stored, never replayed.
 * - `steptext`: a piece of the text a running step's agent is writing (part id: the model
 *   call's live id), at offset `at` (chars) of that call's text. The step's finished text
 *   comes with its `data-step` part.
 */
export type RunTransientDataTypes = { steptext: { stepId: string; at: number; delta: string } };

/** The UI message type of a run. */
export type RunUIMessage = UIMessage<never, RunDataTypes & RunTransientDataTypes>;

/** One custom chunk the engine emits: a data part, or text of the final answer. */
export type RunChunk = { [K in keyof RunDataTypes]: { type: `data-${K}`; id: string; data: RunDataTypes[K] } }[keyof RunDataTypes] | { type: "text"; id: string; text: string };

/**
 * Validates an emitted chunk against its schema.
 * @throws ZodError when a data part does not match its schema (an engine bug).
 */
export function checkChunk(chunk: RunChunk): RunChunk {
  if (chunk.type === "text") return chunk;
  const name = chunk.type.slice(5) as keyof typeof dataSchemas;
  dataSchemas[name].parse(chunk.data);
  return chunk;
}

/**
 * A live text chunk (docs/runs.md "Streaming"): a piece of the text a node's model is writing
 * (`text-delta`), or the end of a step's text with its finished form (`text-end`). The run service hands it to the
 * process's live text (lib/events/live-text.ts) and never stores it: the finished text is
 * stored once, as the answer's `text` chunk or the step's result.
 */
export type LiveChunk =
  | {
      type: "text-delta";
      id: string;
      node: "finalizer" | "executor";
      delta: string /** The delta's offset in the part's text (chars), when a follower knows it (lib/events/live-text.ts). */;
      at?: number;
    }
  | { type: "text-end"; id: string; node: "finalizer" | "executor"; text: string };

/** True when a custom stream payload is a {@link LiveChunk}. */
export function isLiveChunk(payload: unknown): payload is LiveChunk {
  const t = (payload as { type?: unknown } | null)?.type;
  return (t === "text-delta" || t === "text-end") && typeof (payload as { id?: unknown }).id === "string";
}
