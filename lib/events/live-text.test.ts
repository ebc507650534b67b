import { afterEach, describe, expect, it } from "vitest";
import { appendLiveText, clearLiveText, endLiveText, followLiveText, type LiveTextEvent, liveTextThreads, storedLiveText } from "./live-text";

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
    expect(heard.map((e) => (e.kind === "delta" ? e.delta : ""))).toEqual(["Hello there", " friend"]);
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
