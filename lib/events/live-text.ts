import { randomUUID } from "node:crypto";
import { logger } from "../log";
import type { Fanout, Unlisten } from "./fanout";
import { fanout as processFanout } from "./fanout-of";
import { piecesOf, placePiece } from "./live-pieces";

/**
 * Live text of the answers being written (docs/runs.md "Streaming"): the text deltas a model
 * streams, between the worker that runs the graph and the followers of its thread. Deltas are
 * never stored: the stored run events keep the finished text only (one `final_answer` per
 * answer, a step's result in its `data-step`), so storage stays bounded whatever the answer's
 * length. A follower that joins mid-answer gets the text so far (one delta), then the rest live.
 *
 * Two paths (docs/durability.md "Live streams"):
 * - in the process that runs the graph, a follower hears every delta from the registry below
 *   (the local fast path);
 * - a follower in another process (a web instance whose worker runs elsewhere) hears the same
 *   text through the fan-out (LISTEN/NOTIFY on PostgreSQL): the writer batches its deltas into
 *   pieces (every {@link RELAY_BATCH_MS} ms or {@link RELAY_PIECE_CHARS} chars, whichever comes
 *   first), each carrying its offset in the text; a follower's process announces itself on the
 *   thread (`join`) and the writer's process answers with the text so far, in pieces. Pieces
 *   are placed by offset (lib/events/live-pieces.ts): a repeated piece adds nothing, a gap (a
 *   lost notification) stops the part's live text, whose finished form then comes from the
 *   stored event, as always.
 *
 * One registry per process ({@link LiveTextHub}), kept on globalThis so that Next.js's module
 * copies share it.
 */

/** Which node writes the text: the answer (Finalizer, conversation) or a step's agent (Executor). */
export type LiveTextNode = "finalizer" | "executor";

/** What a follower hears: a piece of text at offset `at` (chars), or (for a step's text) that it is finished. */
export type LiveTextEvent = { kind: "delta"; runId: string; id: string; node: LiveTextNode; at: number; delta: string } | { kind: "end"; runId: string; id: string; node: LiveTextNode; text: string };

/** The fan-out channel of live text between processes. */
export const LIVE_TEXT_CHANNEL = "phylactery_live_text";
/** A writer relays its deltas at least this often, in ms. */
export const RELAY_BATCH_MS = 50;
/**
 * Chars per relayed piece: a longer text goes in several. At most 6 bytes per char once in
 * JSON (`\u00XX`), so a piece stays far under NOTIFY's 8000 bytes with its ids.
 */
export const RELAY_PIECE_CHARS = 1_000;

interface Entry {
  runId: string;
  node: LiveTextNode;
  text: string;
  /** Chars of `text` already relayed to other processes (local parts). */
  relayed: number;
  /** A gap was met and the writer was asked once for the text so far (remote parts). */
  asked?: boolean;
}

interface ThreadLive {
  /** Text so far of each part written in this process, by part id. */
  parts: Map<string, Entry>;
  /** Text so far of each part written in another process, as relayed, by part id. */
  remote: Map<string, Entry>;
  listeners: Set<(e: LiveTextEvent) => void>;
}

/** A relayed message (short keys: kind, origin, thread, run, id, node, at, delta). */
type Relayed =
  | { k: "p"; o: string; t: string; r: string; i: string; n: LiveTextNode; a: number; d: string }
  | { k: "e"; o: string; t: string; r: string; i: string; n: LiveTextNode; a: number }
  | { k: "x"; o: string; t: string; r: string; i?: string }
  | { k: "j"; o: string; t: string };

const log = logger.child({ module: "live-text" });

/** Options of {@link LiveTextHub}. */
export interface LiveTextHubOptions {
  /** The fan-out to other processes (called lazily; default: the process's, lib/events/fanout-of.ts). */
  fanout?: () => Fanout;
  /** This process's name on the channel (default: a random UUID). */
  origin?: string;
  /** Batch interval, ms (default {@link RELAY_BATCH_MS}). */
  batchMs?: number;
  /** Chars per piece (default {@link RELAY_PIECE_CHARS}). */
  pieceChars?: number;
}

/**
 * One process's live text: its writers' parts, the parts relayed from other processes to its
 * followers, and the relay between them. See the module's comment.
 */
export class LiveTextHub {
  private readonly threads = new Map<string, ThreadLive>();
  private readonly fanout: () => Fanout;
  private readonly origin: string;
  private readonly batchMs: number;
  private readonly pieceChars: number;
  /** Parts with unrelayed text, by thread then id; flushed by one timer. */
  private readonly dirty = new Map<string, Set<string>>();
  private timer: NodeJS.Timeout | null = null;
  private unlisten: Unlisten | null = null;

  constructor(opts: LiveTextHubOptions = {}) {
    this.fanout = opts.fanout ?? processFanout;
    this.origin = opts.origin ?? randomUUID();
    this.batchMs = opts.batchMs ?? RELAY_BATCH_MS;
    this.pieceChars = opts.pieceChars ?? RELAY_PIECE_CHARS;
  }

  /** Appends `delta` (chars) to part `id` of a thread's run, tells its followers, and relays it within {@link RELAY_BATCH_MS}. Empty deltas are dropped. */
  append(threadId: string, runId: string, id: string, node: LiveTextNode, delta: string): void {
    if (!delta) return;
    const t = this.threadOf(threadId);
    let e = t.parts.get(id);
    if (!e) {
      e = { runId, node, text: "", relayed: 0 };
      t.parts.set(id, e);
      // A writer hears the joins of followers elsewhere while it writes.
      void this.listen();
    }
    const at = e.text.length;
    e.text += delta;
    this.tell(t, { kind: "delta", runId, id, node, at, delta });
    if (e.text.length - e.relayed >= this.pieceChars) this.flushPart(threadId, id, e);
    else this.markDirty(threadId, id);
  }

  /** Ends part `id` (a step's text, whose finished form `text` is stored with the step): followers hear `end` with it. */
  end(threadId: string, id: string, text: string): void {
    const t = this.threads.get(threadId);
    const e = t?.parts.get(id);
    if (!t || !e) return;
    this.flushPart(threadId, id, e);
    t.parts.delete(id);
    this.tell(t, { kind: "end", runId: e.runId, id, node: e.node, text });
    this.send({ k: "e", o: this.origin, t: threadId, r: e.runId, i: id, n: e.node, a: e.text.length });
    this.tidy(threadId, t);
  }

  /** Forgets part `id` without a word: its finished text was stored (followers read it from there). */
  stored(threadId: string, id: string): void {
    const t = this.threads.get(threadId);
    const e = t?.parts.get(id);
    if (!t || !e) return;
    t.parts.delete(id);
    this.dirty.get(threadId)?.delete(id);
    this.send({ k: "x", o: this.origin, t: threadId, r: e.runId, i: id });
    this.tidy(threadId, t);
  }

  /** Forgets every part of a run (its end, a cancel, a lost lease): nothing of it stays in memory. */
  clear(threadId: string, runId: string): void {
    const t = this.threads.get(threadId);
    if (!t) return;
    let had = false;
    for (const [id, e] of t.parts) {
      if (e.runId !== runId) continue;
      t.parts.delete(id);
      this.dirty.get(threadId)?.delete(id);
      had = true;
    }
    for (const [id, e] of t.remote) if (e.runId === runId) t.remote.delete(id);
    if (had) this.send({ k: "x", o: this.origin, t: threadId, r: runId });
    this.tidy(threadId, t);
  }

  /**
   * Follows a thread's live text: `handler` first gets one delta per part being written with
   * its text so far (synchronously, before this returns), then every later event, from this
   * process and (through the fan-out) from the others.
   * @returns the function that stops following (idempotent).
   */
  follow(threadId: string, handler: (e: LiveTextEvent) => void): () => void {
    const t = this.threadOf(threadId);
    for (const parts of [t.parts, t.remote]) for (const [id, e] of parts) if (e.text) handler({ kind: "delta", runId: e.runId, id, node: e.node, at: 0, delta: e.text });
    t.listeners.add(handler);
    // The writers of other processes answer a join with their text so far.
    const ready = this.listen();
    void ready.then(() => {
      if (t.listeners.has(handler)) this.send({ k: "j", o: this.origin, t: threadId });
    });
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      t.listeners.delete(handler);
      this.tidy(threadId, t);
    };
  }

  /** How many threads hold live text or followers in this process (tests: nothing is left behind). */
  size(): number {
    return this.threads.size;
  }

  /** Relays every pending delta now (tests, and before an end). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const [threadId, ids] of [...this.dirty]) {
      this.dirty.delete(threadId);
      const t = this.threads.get(threadId);
      for (const id of ids) {
        const e = t?.parts.get(id);
        if (e) this.flushPart(threadId, id, e);
      }
    }
  }

  /** Stops listening and drops every timer (tests). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dirty.clear();
    this.unlisten?.();
    this.unlisten = null;
    this.threads.clear();
  }

  private threadOf(threadId: string): ThreadLive {
    let t = this.threads.get(threadId);
    if (!t) {
      t = { parts: new Map(), remote: new Map(), listeners: new Set() };
      this.threads.set(threadId, t);
    }
    return t;
  }

  private tidy(threadId: string, t: ThreadLive): void {
    // Relayed text is kept for followers only.
    if (t.listeners.size === 0) t.remote.clear();
    if (t.parts.size === 0 && t.listeners.size === 0 && this.threads.get(threadId) === t) {
      this.threads.delete(threadId);
      this.dirty.delete(threadId);
    }
    if (this.unlisten && this.threads.size === 0) {
      this.unlisten();
      this.unlisten = null;
    }
  }

  private tell(t: ThreadLive, e: LiveTextEvent): void {
    for (const l of [...t.listeners]) {
      try {
        l(e);
      } catch {
        // A follower's failure is its own (its stream ends); the others still hear.
      }
    }
  }

  private markDirty(threadId: string, id: string): void {
    let ids = this.dirty.get(threadId);
    if (!ids) {
      ids = new Set();
      this.dirty.set(threadId, ids);
    }
    ids.add(id);
    if (!this.timer) {
      this.timer = setTimeout(() => this.flush(), this.batchMs);
      this.timer.unref?.();
    }
  }

  private flushPart(threadId: string, id: string, e: Entry): void {
    this.dirty.get(threadId)?.delete(id);
    for (const p of piecesOf(e.text, e.relayed, this.pieceChars)) this.send({ k: "p", o: this.origin, t: threadId, r: e.runId, i: id, n: e.node, a: p.at, d: p.text });
    e.relayed = e.text.length;
  }

  private send(m: Relayed): void {
    let f: Fanout;
    try {
      f = this.fanout();
    } catch (err) {
      log.warn({ err }, "live text: no fan-out; other processes get the finished text only");
      return;
    }
    f.notify(LIVE_TEXT_CHANNEL, m).catch((err: unknown) => log.error({ err }, "live text: a piece was not relayed"));
  }

  /** Listens on the channel while this process writes or follows live text; settles once listening. */
  private listen(): Promise<void> {
    if (!this.unlisten) {
      try {
        this.unlisten = this.fanout().listen(LIVE_TEXT_CHANNEL, (p) => this.heard(p as Relayed));
      } catch (err) {
        log.warn({ err }, "live text: no fan-out; followers get other processes' text when finished");
        return Promise.resolve();
      }
    }
    return this.unlisten.ready.catch(() => undefined);
  }

  /** A relayed message from any process (this one's own are ignored: its followers heard them). */
  private heard(m: Relayed): void {
    if (!m || typeof m !== "object" || m.o === this.origin || typeof m.t !== "string") return;
    const t = this.threads.get(m.t);
    if (!t) return;
    if (m.k === "j") {
      // A follower elsewhere joined: the text so far of every part written here, in pieces.
      for (const [id, e] of t.parts) for (const p of piecesOf(e.text, 0, this.pieceChars)) this.send({ k: "p", o: this.origin, t: m.t, r: e.runId, i: id, n: e.node, a: p.at, d: p.text });
      return;
    }
    if (t.listeners.size === 0 || typeof m.r !== "string") return;
    if (m.k === "x") {
      for (const [id, e] of t.remote) if (e.runId === m.r && (m.i === undefined || m.i === id)) t.remote.delete(id);
      return;
    }
    if (typeof m.i !== "string" || typeof m.a !== "number") return;
    if (m.k === "e") {
      const e = t.remote.get(m.i);
      t.remote.delete(m.i);
      // Only a text known whole ends here; else its finished form comes from the stored event.
      if (e && e.text.length === m.a) this.tell(t, { kind: "end", runId: m.r, id: m.i, node: m.n, text: e.text });
      return;
    }
    if (m.k !== "p" || typeof m.d !== "string") return;
    let e = t.remote.get(m.i);
    if (!e) {
      e = { runId: m.r, node: m.n, text: "", relayed: 0 };
      t.remote.set(m.i, e);
    }
    const added = placePiece(e.text, m.a, m.d);
    if (added === null) {
      // A gap (a lost piece, or a follower that joined mid-answer): ask once for the text so far.
      if (!e.asked) {
        e.asked = true;
        this.send({ k: "j", o: this.origin, t: m.t });
      }
      return;
    }
    if (!added) return;
    const at = e.text.length;
    e.text += added;
    this.tell(t, { kind: "delta", runId: m.r, id: m.i, node: m.n, at, delta: added });
  }
}

const g = globalThis as { __phylacteryLiveTextHub?: LiveTextHub };
g.__phylacteryLiveTextHub ??= new LiveTextHub();
const hub = g.__phylacteryLiveTextHub;

/** Appends `delta` (chars) to part `id` of a thread's run and tells its followers (here and, batched, elsewhere). Empty deltas are dropped. */
export function appendLiveText(threadId: string, runId: string, id: string, node: LiveTextNode, delta: string): void {
  hub.append(threadId, runId, id, node, delta);
}

/** Ends part `id` (a step's text, whose finished form `text` is stored with the step): followers hear `end` with it. */
export function endLiveText(threadId: string, id: string, text: string): void {
  hub.end(threadId, id, text);
}

/** Forgets part `id` without a word: its finished text was stored (followers read it from there). */
export function storedLiveText(threadId: string, id: string): void {
  hub.stored(threadId, id);
}

/** Forgets every part of a run (its end, a cancel, a lost lease): nothing of it stays in memory. */
export function clearLiveText(threadId: string, runId: string): void {
  hub.clear(threadId, runId);
}

/**
 * Follows a thread's live text: `handler` first gets one delta per part being written with
 * its text so far (synchronously, before this returns), then every later event.
 * @returns the function that stops following (idempotent).
 */
export function followLiveText(threadId: string, handler: (e: LiveTextEvent) => void): () => void {
  return hub.follow(threadId, handler);
}

/** How many threads hold live text or followers in this process (tests: nothing is left behind). */
export function liveTextThreads(): number {
  return hub.size();
}
