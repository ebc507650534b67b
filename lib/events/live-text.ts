/**
 * Live text of the answers being written (docs/runs.md "Streaming"): the text deltas a model
 * streams, between the worker that runs the graph and the followers of its thread in the SAME
 * process. Deltas are never stored: the stored run events keep the finished text only (one
 * `final_answer` per answer, a step's result in its `data-step`), so storage stays bounded
 * whatever the answer's length. A follower that joins mid-answer gets the text so far (one
 * delta), then the rest live. A follower in another process (a web instance whose worker runs
 * elsewhere) gets the text when it is finished, from the stored event: deltas do not cross
 * processes (docs/durability.md "Live streams").
 *
 * One registry per process, kept on globalThis so that Next.js's module copies share it.
 */

/** Which node writes the text: the answer (Finalizer, conversation) or a step's agent (Executor). */
export type LiveTextNode = "finalizer" | "executor";

/** What a follower hears: a piece of text, or (for a step's text) that it is finished. */
export type LiveTextEvent =
  | { kind: "delta"; runId: string; id: string; node: LiveTextNode; delta: string }
  | { kind: "end"; runId: string; id: string; node: LiveTextNode; text: string };

interface Entry {
  runId: string;
  node: LiveTextNode;
  text: string;
}

interface ThreadLive {
  /** Text so far of each part being written, by part id. */
  parts: Map<string, Entry>;
  listeners: Set<(e: LiveTextEvent) => void>;
}

const g = globalThis as { __phylacteryLiveText?: Map<string, ThreadLive> };
g.__phylacteryLiveText ??= new Map();
const threads = g.__phylacteryLiveText;

function threadOf(threadId: string): ThreadLive {
  let t = threads.get(threadId);
  if (!t) {
    t = { parts: new Map(), listeners: new Set() };
    threads.set(threadId, t);
  }
  return t;
}

function tidy(threadId: string, t: ThreadLive): void {
  if (t.parts.size === 0 && t.listeners.size === 0) threads.delete(threadId);
}

function tell(t: ThreadLive, e: LiveTextEvent): void {
  for (const l of [...t.listeners]) {
    try {
      l(e);
    } catch {
      // A follower's failure is its own (its stream ends); the others still hear.
    }
  }
}

/** Appends `delta` (chars) to part `id` of a thread's run and tells its followers. Empty deltas are dropped. */
export function appendLiveText(threadId: string, runId: string, id: string, node: LiveTextNode, delta: string): void {
  if (!delta) return;
  const t = threadOf(threadId);
  const e = t.parts.get(id);
  if (e) e.text += delta;
  else t.parts.set(id, { runId, node, text: delta });
  tell(t, { kind: "delta", runId, id, node, delta });
}

/** Ends part `id` (a step's text, whose finished form `text` is stored with the step): followers hear `end` with it. */
export function endLiveText(threadId: string, id: string, text: string): void {
  const t = threads.get(threadId);
  const e = t?.parts.get(id);
  if (!t || !e) return;
  t.parts.delete(id);
  tell(t, { kind: "end", runId: e.runId, id, node: e.node, text });
  tidy(threadId, t);
}

/** Forgets part `id` without a word: its finished text was stored (followers read it from there). */
export function storedLiveText(threadId: string, id: string): void {
  const t = threads.get(threadId);
  if (!t?.parts.delete(id)) return;
  tidy(threadId, t);
}

/** Forgets every part of a run (its end, a cancel, a lost lease): nothing of it stays in memory. */
export function clearLiveText(threadId: string, runId: string): void {
  const t = threads.get(threadId);
  if (!t) return;
  for (const [id, e] of t.parts) if (e.runId === runId) t.parts.delete(id);
  tidy(threadId, t);
}

/**
 * Follows a thread's live text: `handler` first gets one delta per part being written with
 * its text so far (synchronously, before this returns), then every later event.
 * @returns the function that stops following (idempotent).
 */
export function followLiveText(threadId: string, handler: (e: LiveTextEvent) => void): () => void {
  const t = threadOf(threadId);
  for (const [id, e] of t.parts) handler({ kind: "delta", runId: e.runId, id, node: e.node, delta: e.text });
  t.listeners.add(handler);
  return () => {
    t.listeners.delete(handler);
    tidy(threadId, t);
  };
}

/** How many threads hold live text or followers in this process (tests: nothing is left behind). */
export function liveTextThreads(): number {
  return threads.size;
}
