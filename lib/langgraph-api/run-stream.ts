import "server-only";
import type { StateSnapshot } from "@langchain/langgraph";
import type { Db } from "../db/client";
import type { RunChunk } from "../events/ui-parts";
import { followThread } from "../runs/follow-thread";
import { sseResponse } from "../http/sse-response";
import type { StreamMode } from "./run-body";

/** How the stream reads the thread's state (lib/langgraph-api/thread-state-reader.ts). */
export interface StateReader {
  /** Snapshots written after `checkpointId` (null: from the first), oldest first, each with its parent's tasks. */
  since(checkpointId: string | null): Promise<{ snapshot: StateSnapshot; parent: StateSnapshot | null }[]>;
  /** The thread's latest state. */
  latest(): Promise<StateSnapshot>;
  /** The thread's state values as the Platform shows them (secrets redacted, messages as dicts). */
  values(snapshot: StateSnapshot): Record<string, unknown>;
  /** The interrupts the snapshot waits on, as this caller may see them (tokens only for deciders). */
  interrupts(snapshot: StateSnapshot): Promise<{ id: string; value: unknown }[]>;
}

/** Options of {@link platformRunStream}. */
export interface PlatformStreamOptions {
  db: Db;
  threadId: string;
  runId: string;
  /** Follow events with a seq above this one (the run's first event comes after it). */
  afterSeq: number;
  /** The last checkpoint before the run (values and updates are those written after it). */
  startCheckpointId: string | null;
  modes: Set<StreamMode>;
  reader: StateReader;
  signal: AbortSignal;
  /** Called when the client goes away before the run ends (on_disconnect: cancel). */
  onDisconnect?: () => Promise<void>;
  headers?: Record<string, string>;
}

const idOf = (s: StateSnapshot): string | null => (s.config?.configurable?.checkpoint_id as string | undefined) ?? null;

/** What each node wrote in the step that made `snapshot`: its parent's tasks' results. */
function updatesOf(parent: StateSnapshot | null): Record<string, unknown>[] {
  if (!parent) return [];
  return parent.tasks.filter((t) => t.result !== undefined).map((t) => ({ [t.name]: t.result }));
}

/** An AIMessageChunk as LangChain serialises it: one piece of a message being written. */
const messageChunk = (id: string, content: string) => ({
  type: "AIMessageChunk",
  id,
  content,
  tool_calls: [],
  tool_call_chunks: [],
  invalid_tool_calls: [],
  additional_kwargs: {},
  response_metadata: {},
});
/** An AI message as LangChain serialises it (the `messages` mode's partial and complete messages). */
const aiMessage = (id: string, content: string) => ({ type: "ai", id, content, tool_calls: [], invalid_tool_calls: [], additional_kwargs: {}, response_metadata: {} });

/**
 * The `messages` and `messages-tuple` events of a run stream (docs/langgraph-api.md#stream-modes),
 * as the official server sends them. messages-tuple: `messages` `[AIMessageChunk, metadata]`
 * per piece of text as the model writes it (the chunk's `content` is the piece), and a message
 * never streamed comes whole (`type: "ai"`). messages: `messages/metadata`
 * `{ <id>: { metadata } }` once per message, `messages/partial` `[message]` with the text so
 * far after each piece, `messages/complete` `[message]` when it is finished. The metadata is
 * `{ langgraph_node, thread_id, run_id }`.
 */
function messageEvents(o: Pick<PlatformStreamOptions, "modes" | "threadId" | "runId">, send: (event: string, data: unknown, id: string) => void) {
  const tuple = o.modes.has("messages-tuple");
  const whole = o.modes.has("messages");
  /** Text sent so far of each message being written. */
  const sent = new Map<string, string>();
  let n = 0;
  const meta = (node: string) => ({ langgraph_node: node, thread_id: o.threadId, run_id: o.runId });
  const started = (id: string, node: string, seq: number) => {
    if (whole && !sent.has(id)) send("messages/metadata", { [id]: { metadata: meta(node) } }, `${seq}m${++n}`);
  };
  return {
    /** A piece of a message's text, as it was written. */
    delta(id: string, node: string, delta: string, seq: number): void {
      started(id, node, seq);
      const so = (sent.get(id) ?? "") + delta;
      sent.set(id, so);
      if (tuple) send("messages", [messageChunk(id, delta), meta(node)], `${seq}m${++n}`);
      if (whole) send("messages/partial", [aiMessage(id, so)], `${seq}m${++n}`);
    },
    /** A message's finished text (stored, or a step's text at its end). */
    done(id: string, node: string, text: string, seq: number): void {
      if (!tuple && !whole) return;
      const so = sent.get(id);
      started(id, node, seq);
      sent.delete(id);
      if (tuple) {
        if (so === undefined) send("messages", [{ type: "ai", id, content: text, tool_calls: [] }, meta(node)], `${seq}m${++n}`);
        else {
          const rest = text.startsWith(so) ? text.slice(so.length) : `\n\n${text}`;
          if (rest) send("messages", [messageChunk(id, rest), meta(node)], `${seq}m${++n}`);
        }
      }
      if (whole) send("messages/complete", [aiMessage(id, text)], `${seq}m${++n}`);
    },
  };
}

/**
 * A LangGraph Platform run stream (docs/langgraph-api.md#stream-modes) as server-sent events:
 * `metadata` `{ run_id, attempt }` first; then, as the run goes, `custom` (the run's named
 * events, as stored), `messages` / `messages/*` (the text of the answer and of the
 * agents' steps as it is written: see messageEvents), and from each checkpoint the run writes `values` (the state),
 * `updates` (`{ node: update }`) and `events` (`on_chain_end` per node that finished, then
 * `on_chain_start` per node the checkpoint hands over to); when the run stops at
 * an interrupt, `updates` `{ __interrupt__ }` and `values` with `__interrupt__`; an `error`
 * event when it fails. Every event carries an `id` (the seq of the stored event it follows,
 * with a suffix for state events) so a client resumes with `Last-Event-ID`. The stream follows
 * stored events (lib/runs/follow-thread.ts), so it works whichever process executes the run,
 * and a client going away never stops the run unless it asked to (`on_disconnect: cancel`).
 */
export function platformRunStream(o: PlatformStreamOptions): Response {
  const wantsState = o.modes.has("values") || o.modes.has("updates") || o.modes.has("events");
  const stop = new AbortController();
  o.signal.addEventListener("abort", () => stop.abort(), { once: true });
  let ended = false;
  const response = sseResponse({ signal: stop.signal, keepAliveMs: 10_000 }, (sink) => {
    let lastCheckpoint = o.startCheckpointId;
    let cursor = o.afterSeq;
    let step = 0;
    const emitState = async (final: boolean): Promise<void> => {
      if (!wantsState && !final) return;
      const written = await o.reader.since(lastCheckpoint);
      for (const { snapshot, parent } of written) {
        lastCheckpoint = idOf(snapshot) ?? lastCheckpoint;
        step += 1;
        for (const update of updatesOf(parent)) {
          if (o.modes.has("updates")) sink.event("updates", update, `${cursor}.${step}u`);
          if (o.modes.has("events")) {
            const [node, output] = Object.entries(update)[0] as [string, unknown];
            sink.event("events", { event: "on_chain_end", name: node, run_id: o.runId, metadata: { langgraph_node: node, thread_id: o.threadId }, data: { output } }, `${cursor}.${step}e`);
          }
        }
        // The nodes this checkpoint hands over to are the ones running now (Agent Inbox shows
        // the last one as the run's current node).
        if (o.modes.has("events")) {
          for (const node of new Set(snapshot.next)) {
            sink.event("events", { event: "on_chain_start", name: node, run_id: o.runId, metadata: { langgraph_node: node, thread_id: o.threadId }, data: {} }, `${cursor}.${step}s`);
          }
        }
        if (o.modes.has("values")) sink.event("values", o.reader.values(snapshot), `${cursor}.${step}v`);
      }
    };
    const messages = messageEvents(o, (event, data, id) => sink.event(event, data, id));
    const run = async (): Promise<void> => {
      sink.event("metadata", { run_id: o.runId, attempt: 1 });
      let last: RunChunk | null = null;
      let lastStateRead = 0;
      const live = o.modes.has("messages") || o.modes.has("messages-tuple");
      for await (const item of followThread(o.db, o.threadId, { after: o.afterSeq, runId: o.runId, signal: stop.signal, live: true })) {
        if ("live" in item) {
          if (!live) continue;
          if (item.live.type === "text-delta") messages.delta(item.live.id, item.live.node, item.live.delta, item.seq);
          else messages.done(item.live.id, item.live.node, item.live.text, item.seq);
          continue;
        }
        const { seq, chunk } = item;
        cursor = seq;
        last = chunk;
        if (o.modes.has("custom")) sink.event("custom", chunk, String(seq));
        if (chunk.type === "text") messages.done(chunk.id, "finalizer", chunk.text, seq);
        if (wantsState && Date.now() - lastStateRead >= 200) {
          lastStateRead = Date.now();
          await emitState(false);
        }
      }
      if (stop.signal.aborted) return;
      ended = true;
      await emitState(false);
      const status = last?.type === "data-run" ? last.data.status : null;
      if (status === "awaiting_approval" || status === "awaiting_input") {
        const latest = await o.reader.latest();
        const interrupts = await o.reader.interrupts(latest);
        if (o.modes.has("updates")) sink.event("updates", { __interrupt__: interrupts }, `${cursor}.i`);
        if (o.modes.has("values")) sink.event("values", { ...o.reader.values(latest), __interrupt__: interrupts }, `${cursor}.iv`);
      }
      if (status === "failed") {
        const message = last?.type === "data-run" ? (last.data.error?.message ?? "The run failed.") : "The run failed.";
        sink.event("error", { error: "RunFailed", message }, `${cursor}.x`);
      }
    };
    run()
      .catch((err: unknown) => {
        if (!stop.signal.aborted) sink.event("error", { error: "StreamError", message: err instanceof Error ? err.message : String(err) });
      })
      .finally(() => sink.close());
    return () => {
      stop.abort();
      if (!ended && o.signal.aborted && o.onDisconnect) void o.onDisconnect();
    };
  });
  const headers = new Headers(response.headers);
  for (const [k, v] of Object.entries(o.headers ?? {})) headers.set(k, v);
  return new Response(response.body, { status: response.status, headers });
}
