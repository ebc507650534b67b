import { randomBytes } from "node:crypto";
import { z } from "zod";
import { dataSchemas } from "./ui-parts";
import { logContext } from "../log";

/**
 * The event bus (SPEC.md 7, seed 004): typed in-process publish/subscribe for the `task.*`,
 * `agent.*`, `tool.*`, `memory.*` and `approval.*` events. Every event is an envelope with
 * the ids that trace it (traceId, threadId, runId) and a payload checked by its topic's zod
 * schema before any subscriber sees it. `publish` awaits the subscribers in the order they
 * subscribed, so a subscriber that stores events keeps their order.
 *
 * One bus per server process (kept on globalThis so that Next.js's module copies share
 * it); events do not cross processes (seed 004: in-process for the MVP).
 */

/** Ids that tie an event to its run (SPEC.md 7: every event carries trace and thread id). */
export const TraceIds = z.object({
  /** W3C trace id: 32 lower-case hex chars; one per run. */
  traceId: z.string().regex(/^[0-9a-f]{32}$/),
  threadId: z.string().nullable(),
  runId: z.string().nullable(),
});
export type TraceIds = z.infer<typeof TraceIds>;

/** A fresh random W3C trace id (16 random bytes as 32 lower-case hex chars; never all zeros). */
export function newTraceId(): string {
  const id = randomBytes(16).toString("hex");
  return /^0+$/.test(id) ? newTraceId() : id;
}

/**
 * The ids of the run being served (lib/log.ts context), for publishers below the run
 * service (memory, approvals); outside a run a fresh trace id and null thread and run.
 */
export function currentTraceIds(): TraceIds {
  const ctx = logContext();
  return ctx ? { traceId: ctx.traceId, threadId: ctx.threadId, runId: ctx.runId } : { traceId: newTraceId(), threadId: null, runId: null };
}

/**
 * Checks a value against `schema` but hands on the value itself (zod would strip unknown
 * keys of a copy): the chunk a subscriber stores and streams is the one the engine emitted.
 */
function exact<T extends z.ZodType>(schema: T): z.ZodType<z.infer<T>> {
  return z.custom<z.infer<T>>().superRefine((value, ctx) => {
    const result = schema.safeParse(value);
    if (!result.success) for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: [...issue.path] });
  });
}

/** A UI data part of the run stream (lib/events/ui-parts.ts), e.g. `{ type: "data-run", id, data }`. */
const part = <K extends keyof typeof dataSchemas>(kind: K) => exact(z.object({ type: z.literal(`data-${kind}` as const), id: z.string(), data: dataSchemas[kind] }));
const textPart = exact(z.object({ type: z.literal("text"), id: z.string(), text: z.string() }));
/** A stored-only record of an event that no stream part stands for (intent_classified, agent_changed). */
const derived = <N extends string>(name: N, payload: z.ZodType) => exact(z.object({ type: z.literal("event"), name: z.literal(name), payload }));

/**
 * A run topic's payload: the stored event's name (lib/events/run-events.ts) and `chunk`,
 * what the RunEvent stores: the stream part itself, or for an event that is not streamed
 * (user_message, intent_classified, agent_changed) the record stored for it.
 */
const run = <N extends string, C extends z.ZodType>(name: N | readonly [N, ...N[]], chunk: C) =>
  z.object({ name: typeof name === "string" ? z.literal(name) : z.enum(name as readonly [N, ...N[]]), chunk });

const toolPart = part("tool");
const stepPart = part("step");
const runPart = part("run");

/** The payload schema of each topic (SPEC.md 7 and seed 004 names, plus the run's own). */
export const busSchemas = {
  /** A user message (or decision, continue, expiry) starts a run: `{ text, kind }`. */
  "task.created": run("user_message", exact(z.object({ text: z.string(), kind: z.string() }))),
  "task.classified": run("intent_classified", derived("intent_classified", z.object({ intent: z.enum(["task", "conversation"]) }))),
  "task.started": run("run_started", runPart),
  /** Waiting on an approval or on the user's answer. */
  "task.blocked": run("run_suspended", runPart),
  "task.completed": run("run_completed", runPart),
  "task.failed": run("run_failed", runPart),
  "task.planned": run(["plan_generated", "plan_updated", "plan_completed", "plan_failed"], part("plan")),
  "task.lifecycle": run("lifecycle_transition", part("lifecycle")),
  "task.answered": run("final_answer", textPart),
  "agent.handoff": z.union([run("agent_handoff", part("handoff")), run("agent_changed", derived("agent_changed", z.object({ from: z.string().nullable(), to: z.string(), agentName: z.string() })))]),
  "agent.started": run("plan_step_started", stepPart),
  "agent.tool_called": run("tool_call_proposed", toolPart),
  "agent.completed": run("plan_step_completed", stepPart),
  "agent.error": run("plan_step_failed", stepPart),
  "tool.risk_decided": run("risk_decision", toolPart),
  "tool.approval_required": run("approval_required", part("approval")),
  /** A side-effecting call's outcome is unknown after a crash: a person chooses retry or skip. */
  "tool.outcome_unknown": run("outcome_unknown", part("outcome")),
  "tool.invoked": run("tool_running", toolPart),
  "tool.rejected": run("tool_rejected", toolPart),
  "tool.success": run("tool_result", toolPart),
  "tool.failed": run("tool_result", toolPart),
  /** Short-term entry written (no content: the entry holds it). */
  "memory.appended": z.object({ entryId: z.string(), agentId: z.string(), action: z.string(), stepId: z.string().nullable() }),
  /**
   * What was injected into an agent's context: ids and counts only. The run service adds
   * `name` ("memory_injected") and `chunk` (the data-memory part) when it publishes the
   * run's stream part; other publishers leave both out (only events with them are stored).
   */
  "memory.retrieved": z.object({
    agentId: z.string(),
    stepId: z.string().nullable(),
    /** How many short-term entries were injected. */
    shortTerm: z.number().int().nonnegative(),
    factIds: z.array(z.string()),
    name: z.literal("memory_injected").optional(),
    chunk: part("memory").optional(),
  }),
  /** Facts proposed (or accepted, with auto-promote) from a finished thread. */
  "memory.promoted": z.object({ factIds: z.array(z.string()), accepted: z.boolean() }),
  /** An erasure: what went (kind and id) and how many rows went with it; never content. */
  "memory.forgotten": z.object({
    kind: z.enum(["fact", "thread", "short_term"]),
    subjectId: z.string(),
    workspaceId: z.string(),
    counts: z.record(z.string(), z.number().int().nonnegative()),
  }),
  "approval.created": z.object({ approvalId: z.string(), status: z.string() }),
  "approval.decided": z.object({ approvalId: z.string(), status: z.string() }),
  "approval.expired": z.object({ approvalId: z.string(), status: z.string() }),
  "approval.consumed": z.object({ approvalId: z.string(), status: z.string() }),
} as const satisfies Record<string, z.ZodType>;

/** Every topic name. */
export type BusTopic = keyof typeof busSchemas;
export const BUS_TOPICS = Object.keys(busSchemas) as BusTopic[];

/** One event on the bus: topic, trace ids, time (ms since the epoch) and payload. */
export type BusEvent<T extends BusTopic = BusTopic> = {
  [K in T]: TraceIds & { topic: K; at: number; data: z.infer<(typeof busSchemas)[K]> };
}[T];

/** A subscription pattern: one topic, a namespace (`tool.*`) or everything (`*`). */
export type TopicPattern = BusTopic | `${string}.*` | "*";

/** A subscriber; a returned promise is awaited before the next subscriber runs. */
export type BusHandler = (event: BusEvent) => void | Promise<void>;

interface Subscription {
  pattern: TopicPattern;
  handler: BusHandler;
  /** Only events of this thread / run, when set. */
  threadId?: string;
  runId?: string;
}

const g = globalThis as { __phylacteryBus?: Set<Subscription> };
g.__phylacteryBus ??= new Set();
const subscriptions = g.__phylacteryBus;

function matches(pattern: TopicPattern, topic: string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith(".*")) return topic.startsWith(pattern.slice(0, -1));
  return pattern === topic;
}

/**
 * Publishes one event: checks the envelope and the payload against the topic's schema,
 * then calls each matching subscriber in subscription order, awaiting async ones. A
 * subscriber that throws does not stop the others.
 * @throws ZodError when the event does not match its schema (a bug in the publisher;
 *   no subscriber is called); else rethrows the first subscriber error after every
 *   subscriber has run.
 */
export async function publish<T extends BusTopic>(event: BusEvent<T>): Promise<void> {
  const checked = checkedEvent(event);
  let failure: { error: unknown } | null = null;
  for (const sub of [...subscriptions]) {
    if (!matches(sub.pattern, checked.topic)) continue;
    if (sub.threadId !== undefined && sub.threadId !== checked.threadId) continue;
    if (sub.runId !== undefined && sub.runId !== checked.runId) continue;
    try {
      await sub.handler(checked);
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}

/**
 * The event as its topic's schema reads it (what subscribers receive): a writer that stores
 * an event before publishing it (lib/runs/run-execute.ts) stores this.
 * @throws ZodError when the ids, time or data do not match (a bug of the publisher).
 */
export function checkedEvent<T extends BusTopic>(event: BusEvent<T>): BusEvent {
  TraceIds.parse(event);
  z.number().parse(event.at);
  const schema: z.ZodType = busSchemas[event.topic];
  return { ...event, data: schema.parse(event.data) } as BusEvent;
}

/**
 * Subscribes to the events whose topic matches `pattern` (and, with `filter`, only those of
 * one thread or run). Subscribing during a publish takes effect from the next event.
 * @returns the function that unsubscribes (idempotent).
 */
export function subscribe(pattern: TopicPattern, handler: BusHandler, filter: { threadId?: string; runId?: string } = {}): () => void {
  const sub: Subscription = { pattern, handler, ...filter };
  subscriptions.add(sub);
  return () => {
    subscriptions.delete(sub);
  };
}
