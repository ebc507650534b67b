import { afterEach, describe, expect, it } from "vitest";
import type { Fanout } from "./fanout";
import { InProcessFanout } from "./in-process-fanout";
import { appendLiveText, clearLiveText, endLiveText, followLiveText, LIVE_TEXT_CHANNEL, LiveTextHub, type LiveTextEvent, liveTextThreads, storedLiveText } from "./live-text";

/** The process's live text (docs/runs.md "Streaming"): text so far for late followers, nothing kept once finished. */
describe("live text", () => {
  const offs: (() => void)[] = [];
  afterEach(() => {
    for (const off of offs.splice(0)) off();
    clearLiveText("t1", "r1");
  });

  it("gives a late follower the text so far in one delta, then each new delta", () => {
    appendLiveText("t1", "r1", "final-1", "finalizer", "Hello");
    appendLiveText("t1", "r1", "final-1", "finalizer", " there");
    const heard: LiveTextEvent[] = [];
    offs.push(followLiveText("t1", (e) => heard.push(e)));
    appendLiveText("t1", "r1", "final-1", "finalizer", " friend");
    expect(heard.map((e) => (e.kind === "delta" ? [e.at, e.delta] : []))).toEqual([
      [0, "Hello there"],
      [11, " friend"],
    ]);
  });

  it("forgets a part once stored or ended, and every part of a run at its end", () => {
    const heard: LiveTextEvent[] = [];
    offs.push(followLiveText("t1", (e) => heard.push(e)));
    appendLiveText("t1", "r1", "step-a", "executor", "Reading");
    endLiveText("t1", "step-a", "Reading notes.md");
    expect(heard.at(-1)).toEqual({ kind: "end", runId: "r1", id: "step-a", node: "executor", text: "Reading notes.md" });
    appendLiveText("t1", "r1", "final-1", "finalizer", "Done");
    storedLiveText("t1", "final-1");
    appendLiveText("t1", "r1", "final-2", "finalizer", "More");
    clearLiveText("t1", "r1");
    const late: LiveTextEvent[] = [];
    for (const off of offs.splice(0)) off();
    offs.push(followLiveText("t1", (e) => late.push(e)));
    expect(late).toEqual([]);
    for (const off of offs.splice(0)) off();
    expect(liveTextThreads()).toBe(0);
  });
});

/** Waits (on real timers) until `check` holds; the relay is asynchronous. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

/** The text a follower heard of one part, placed by the offsets it heard. */
function heardText(events: LiveTextEvent[], id: string): string {
  let text = "";
  for (const e of events) {
    if (e.kind !== "delta" || e.id !== id) continue;
    expect(e.at).toBe(text.length);
    text += e.delta;
  }
  return text;
}

/**
 * Live text across processes (docs/durability.md "Live streams"): two hubs (two processes)
 * on one fan-out; the writer's pieces reach the other's followers by offset.
 */
describe("live text between processes", () => {
  const hubs: LiveTextHub[] = [];
  const two = (fanout: Fanout, pieceChars = 1_000) => {
    const a = new LiveTextHub({ fanout: () => fanout, origin: "a", batchMs: 5, pieceChars });
    const b = new LiveTextHub({ fanout: () => fanout, origin: "b", batchMs: 5, pieceChars });
    hubs.push(a, b);
    return { a, b };
  };
  afterEach(() => {
    for (const h of hubs.splice(0)) h.close();
  });

  it("a follower in another process hears the text in batched pieces before it ends, then the end", async () => {
    const fanout = new InProcessFanout();
    const notified: unknown[] = [];
    fanout.listen(LIVE_TEXT_CHANNEL, (p) => notified.push(p));
    const { a, b } = two(fanout);
    const heard: LiveTextEvent[] = [];
    const off = b.follow("t1", (e) => heard.push(e));
    const words = "Reading the notes and counting the words one by one".split(" ").map((w, i) => (i === 0 ? w : ` ${w}`));
    for (const w of words.slice(0, 4)) a.append("t1", "r1", "step-s1-1-2", "executor", w);
    await until(() => heard.length > 0, "a first piece");
    // Batched: fewer pieces than deltas.
    expect(heard.every((e) => e.kind === "delta")).toBe(true);
    expect(heardText(heard, "step-s1-1-2")).toBe(words.slice(0, 4).join(""));
    for (const w of words.slice(4)) a.append("t1", "r1", "step-s1-1-2", "executor", w);
    a.end("t1", "step-s1-1-2", words.join(""));
    await until(() => heard.some((e) => e.kind === "end"), "the end");
    expect(heardText(heard, "step-s1-1-2")).toBe(words.join(""));
    expect(heard.at(-1)).toEqual({ kind: "end", runId: "r1", id: "step-s1-1-2", node: "executor", text: words.join("") });
    const pieces = notified.filter((p) => (p as { k: string }).k === "p");
    expect(pieces.length).toBeLessThan(words.length);
    off();
    expect(b.size()).toBe(0);
    expect(a.size()).toBe(0);
  });

  it("a follower that joins mid-answer gets the text so far, then the rest, in order, no piece twice", async () => {
    const fanout = new InProcessFanout();
    const { a, b } = two(fanout, 8);
    const text = "Once upon a time there was a stream of words that crossed from one process to another.";
    const words = text.split(/(?= )/);
    for (const w of words.slice(0, 6)) a.append("t1", "r1", "final-1", "finalizer", w);
    a.flush();
    const heard: LiveTextEvent[] = [];
    const off = b.follow("t1", (e) => heard.push(e));
    await until(() => heardText(heard, "final-1").length >= words.slice(0, 6).join("").length, "the text so far");
    for (const w of words.slice(6)) a.append("t1", "r1", "final-1", "finalizer", w);
    await until(() => heardText(heard, "final-1") === text, "the whole text");
    // A piece heard again (another follower joining) adds nothing.
    const before = heard.length;
    const off2 = b.follow("t1", () => undefined);
    await new Promise((r) => setTimeout(r, 30));
    expect(heard.length).toBe(before);
    expect(heardText(heard, "final-1")).toBe(text);
    a.stored("t1", "final-1");
    off();
    off2();
  });

  it("a lost piece never makes a hole: the follower asks again for the text so far", async () => {
    const inner = new InProcessFanout();
    let drop = 1;
    const lossy: Fanout = {
      notify: (channel, payload) => ((payload as { k: string }).k === "p" && (payload as { a: number }).a > 0 && drop-- > 0 ? Promise.resolve() : inner.notify(channel, payload)),
      listen: (channel, handler) => inner.listen(channel, handler),
      close: () => inner.close(),
    };
    const { a, b } = two(lossy, 4);
    const heard: LiveTextEvent[] = [];
    const off = b.follow("t1", (e) => heard.push(e));
    await new Promise((r) => setTimeout(r, 10));
    for (const w of ["abcd", "efgh", "ijkl", "mnop"]) a.append("t1", "r1", "final-1", "finalizer", w);
    await until(() => heardText(heard, "final-1") === "abcdefghijklmnop", "the whole text");
    off();
  });

  it("ignores its own pieces (its followers heard them from the registry) and malformed ones", async () => {
    const fanout = new InProcessFanout();
    const { a } = two(fanout);
    const heard: LiveTextEvent[] = [];
    const off = a.follow("t1", (e) => heard.push(e));
    a.append("t1", "r1", "final-1", "finalizer", "Hi");
    await fanout.notify(LIVE_TEXT_CHANNEL, { k: "p", o: "z", t: "t1", r: "r1", i: "x", n: "finalizer", a: "0", d: 1 });
    await fanout.notify(LIVE_TEXT_CHANNEL, null);
    a.flush();
    await new Promise((r) => setTimeout(r, 20));
    expect(heard).toEqual([{ kind: "delta", runId: "r1", id: "final-1", node: "finalizer", at: 0, delta: "Hi" }]);
    a.clear("t1", "r1");
    off();
    expect(a.size()).toBe(0);
  });
});
