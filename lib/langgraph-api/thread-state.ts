import type { StateSnapshot } from "@langchain/langgraph";
import { redactSecrets } from "../engine/safe-state";
import { type PlatformInterrupt, platformInterrupts, type TicketLookup } from "./interrupts";
import { platformMessages, type StoredMessage } from "./messages";

/**
 * LangGraph state snapshots as the Platform API's ThreadState (docs/langgraph-api.md#state):
 * what `threads.getState` and `threads.getHistory` return.
 */

/** A Platform checkpoint reference. */
export interface PlatformCheckpoint {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string;
  checkpoint_map: Record<string, unknown> | null;
}

/** A Platform thread task (one node to run next, with its interrupts). */
export interface PlatformTask {
  id: string;
  name: string;
  error: string | null;
  interrupts: PlatformInterrupt[];
  checkpoint: PlatformCheckpoint | null;
  state: null;
  result?: unknown;
}

/** The Platform's ThreadState. */
export interface PlatformThreadState {
  values: Record<string, unknown>;
  next: string[];
  tasks: PlatformTask[];
  checkpoint: PlatformCheckpoint | null;
  metadata: Record<string, unknown>;
  created_at: string | null;
  parent_checkpoint: PlatformCheckpoint | null;
  interrupts: PlatformInterrupt[];
}

/** The state of a thread that has no checkpoint yet (an API thread before its first run). */
export const EMPTY_STATE: PlatformThreadState = { values: {}, next: [], tasks: [], checkpoint: null, metadata: {}, created_at: null, parent_checkpoint: null, interrupts: [] };

/**
 * State values as published: every channel, secrets redacted (approval tokens, `*_token`
 * keys, `APPROVE <id> <token>` texts; lib/engine/safe-state.ts), `messages` as LangChain
 * message dicts (lib/langgraph-api/messages.ts). Tool outputs larger than the eviction limit
 * are already pointers in the state, never their contents.
 */
export function platformValues(threadId: string, values: Record<string, unknown>): Record<string, unknown> {
  const safe = redactSecrets(values);
  if (Array.isArray(values.messages)) safe.messages = platformMessages(threadId, values.messages as StoredMessage[]);
  return safe;
}

/** A LangGraph config's checkpoint reference, or null when it names none. */
export function platformCheckpoint(config: { configurable?: Record<string, unknown> } | undefined): PlatformCheckpoint | null {
  const c = config?.configurable;
  if (!c || typeof c.checkpoint_id !== "string") return null;
  return {
    thread_id: String(c.thread_id ?? ""),
    checkpoint_ns: typeof c.checkpoint_ns === "string" ? c.checkpoint_ns : "",
    checkpoint_id: c.checkpoint_id,
    checkpoint_map: c.checkpoint_map && typeof c.checkpoint_map === "object" ? (c.checkpoint_map as Record<string, unknown>) : null,
  };
}

const errorText = (e: unknown): string | null => (e === undefined || e === null ? null : e instanceof Error ? `${e.name}: ${e.message}` : typeof e === "string" ? e : JSON.stringify(e));

/**
 * A LangGraph StateSnapshot as the Platform's ThreadState: values as {@link platformValues};
 * `next`; tasks with their published interrupts (lib/langgraph-api/interrupts.ts, the approval
 * token per `tickets`) and result; the checkpoint, its parent, its metadata (redacted) and
 * time; all pending interrupts flattened. A snapshot with no checkpoint reads as {@link EMPTY_STATE}.
 */
export function platformThreadState(threadId: string, snap: StateSnapshot, tickets: TicketLookup): PlatformThreadState {
  const checkpoint = platformCheckpoint(snap.config);
  if (!checkpoint) return structuredClone(EMPTY_STATE);
  const { byTask, all } = platformInterrupts(snap, tickets);
  return {
    values: platformValues(threadId, (snap.values ?? {}) as Record<string, unknown>),
    next: [...snap.next],
    tasks: snap.tasks.map((t) => ({
      id: t.id,
      name: t.name,
      error: errorText(t.error),
      interrupts: byTask[t.id] ?? [],
      checkpoint: null,
      state: null,
      ...(t.result !== undefined ? { result: redactSecrets(t.result) } : {}),
    })),
    checkpoint,
    metadata: redactSecrets((snap.metadata ?? {}) as Record<string, unknown>),
    created_at: snap.createdAt ?? null,
    parent_checkpoint: platformCheckpoint(snap.parentConfig),
    interrupts: all,
  };
}
