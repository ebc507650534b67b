import { z } from "zod";

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

const memoryCounts = z.record(z.string(), z.number().int().nonnegative());

/**
 * The payload schema of each topic. Run topics carry the stream chunk they stand for
 * (`chunk`, a UI data part; see lib/engine/ui-parts.ts) and the stored event's name
 * (`name`, see lib/events/run-events.ts), so the run view's stream and the stored run
 * events are both built from bus events.
 */
const runPayload = z.object({ name: z.string(), chunk: z.unknown() });

export const busSchemas = {
  "task.created": runPayload,
  "task.classified": runPayload,
  "task.started": runPayload,
  "task.blocked": runPayload,
  "task.completed": runPayload,
  "task.failed": runPayload,
  "task.planned": runPayload,
  "task.lifecycle": runPayload,
  "task.answered": runPayload,
  "agent.handoff": runPayload,
  "agent.started": runPayload,
  "agent.tool_called": runPayload,
  "agent.completed": runPayload,
  "agent.error": runPayload,
  "tool.risk_decided": runPayload,
  "tool.approval_required": runPayload,
  "tool.invoked": runPayload,
  "tool.rejected": runPayload,
  "tool.success": runPayload,
  "tool.failed": runPayload,
  /** Short-term entry written (no content: the entry holds it). */
  "memory.appended": z.object({ entryId: z.string(), agentId: z.string(), action: z.string(), stepId: z.string().nullable() }),
  /** What was injected into an agent's context: ids only, plus the stream chunk for the run view. */
  "memory.retrieved": z.object({ agentId: z.string(), stepId: z.string().nullable(), shortTerm: z.number().int(), factIds: z.array(z.string()), chunk: z.unknown().optional() }),
  /** Facts proposed (or accepted, with auto-promote) from a finished thread. */
  "memory.promoted": z.object({ factIds: z.array(z.string()), accepted: z.boolean() }),
  /** An erasure: what went (kind and id) and how many rows went with it; never content. */
  "memory.forgotten": z.object({ kind: z.enum(["fact", "thread", "short_term"]), subjectId: z.string(), workspaceId: z.string(), counts: memoryCounts }),
  "approval.created": z.object({ approvalId: z.string(), status: z.string() }),
  "approval.decided": z.object({ approvalId: z.string(), status: z.string() }),
  "approval.expired": z.object({ approvalId: z.string(), status: z.string() }),
  "approval.consumed": z.object({ approvalId: z.string(), status: z.string() }),
} as const satisfies Record<string, z.ZodType>;

/** Every topic name. */
export type BusTopic = keyof typeof busSchemas;
export const BUS_TOPICS = Object.keys(busSchemas) as BusTopic[];

/** One event on the bus: topic, trace ids, time (ms since the epoch) and payload. */
export type BusEvent<T extends BusTopic = BusTopic> = TraceIds & { topic: T; at: number; data: z.infer<(typeof busSchemas)[T]> };

/** A subscription pattern: one topic, a namespace (`tool.*`) or everything (`*`). */
export type TopicPattern = BusTopic | `${string}.*` | "*";

type Handler = (event: BusEvent) => void | Promise<void>;
interface Subscription {
  pattern: TopicPattern;
  handler: Handler;
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
 * then calls each matching subscriber in subscription order, awaiting async ones.
 * @throws ZodError when the event does not match its schema (a bug in the publisher);
 *   rethrows the first subscriber error after every subscriber has run.
 */
export async function publish<T extends BusTopic>(event: BusEvent<T>): Promise<void> {
  TraceIds.parse(event);
  const checked = { ...event, data: busSchemas[event.topic].parse(event.data) } as BusEvent;
  let failure: unknown = null;
  for (const sub of [...subscriptions]) {
    if (!matches(sub.pattern, checked.topic)) continue;
    if (sub.threadId !== undefined && sub.threadId !== checked.threadId) continue;
    if (sub.runId !== undefined && sub.runId !== checked.runId) continue;
    try {
      await sub.handler(checked);
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure) throw failure;
}

/**
 * Subscribes to the events whose topic matches `pattern` (and, with `filter`, only those of
 * one thread or run).
 * @returns the function that unsubscribes.
 */
export function subscribe(pattern: TopicPattern, handler: Handler, filter: { threadId?: string; runId?: string } = {}): () => void {
  const sub: Subscription = { pattern, handler, ...filter };
  subscriptions.add(sub);
  return () => {
    subscriptions.delete(sub);
  };
}
