import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { type FollowedChunk, type FollowedLive, followThread } from "../runs/follow-thread";
import { followLiveText, type LiveTextEvent, liveTextThreads } from "../events/live-text";
import { createOfflineModel } from "../models/offline";
import { cancelRunJob } from "../runs/cancel-run";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";

/**
 * Answers that stream (docs/runs.md "Streaming"): the answer's text reaches followers in
 * pieces while the model writes it, the stored events keep the finished text once, a
 * follower joining mid-answer gets the text so far then the rest, and cancelling the run
 * ends the model's stream.
 */
describe("answers that stream", () => {
  let f: EngineFixture;
  const offs: (() => void)[] = [];
  afterEach(async () => {
    for (const off of offs.splice(0)) off();
    await f?.cleanup();
  });
  const offline = () => ({ model: createOfflineModel({ wordMs: 5 }), provider: "phylactery", modelId: "offline", offline: true });

  it("streams the answer as many deltas and stores it once, with nothing left in memory", async () => {
    f = await engineFixture(undefined, { resolveModel: offline });
    const threadId = await f.newThread("hello");
    const heard: LiveTextEvent[] = [];
    offs.push(followLiveText(threadId, (e) => heard.push(e)));
    const run = await f.prepare(threadId, { kind: "message", text: "hello" });
    const chunks = await collect(run);
    expect(lastData(chunks, "data-run")?.data.status).toBe("completed");
    const answer = chunks.find((c) => c.type === "text");
    if (answer?.type !== "text") throw new Error("no answer");
    const deltas = heard.filter((e) => e.kind === "delta" && e.id === answer.id).map((e) => (e.kind === "delta" ? e.delta : ""));
    expect(deltas.length).toBeGreaterThan(10);
    expect(deltas.join("")).toBe(answer.text);
    // Bounded storage: one stored answer, no row per delta.
    const rows = await f.t.db.runEvent.findMany({ where: { runId: run.runId }, select: { type: true } });
    expect(rows.filter((r) => r.type === "final_answer")).toHaveLength(1);
    expect(rows.length).toBeLessThan(10);
    for (const off of offs.splice(0)) off();
    expect(liveTextThreads()).toBe(0);
  });

  it("a follower joining mid-answer gets the text so far, then the rest live, then the stored answer", async () => {
    f = await engineFixture(undefined, { resolveModel: () => ({ ...offline(), model: createOfflineModel({ wordMs: 15 }) }) });
    const threadId = await f.newThread("hello");
    let joined: () => void = () => undefined;
    const midAnswer = new Promise<void>((r) => {
      joined = r;
    });
    let words = 0;
    offs.push(
      followLiveText(threadId, (e) => {
        if (e.kind === "delta" && ++words === 4) joined();
      }),
    );
    const run = await f.prepare(threadId, { kind: "message", text: "hello" });
    const running = collect(run);
    await midAnswer;
    const got: (FollowedChunk | FollowedLive)[] = [];
    for await (const item of followThread(f.t.db, threadId, { after: 0, runId: run.runId, live: true, pollMs: 50 })) got.push(item);
    const chunks = await running;
    const answer = chunks.find((c) => c.type === "text");
    if (answer?.type !== "text") throw new Error("no answer");
    const live = got.flatMap((g) => ("live" in g && g.live.type === "text-delta" ? [g.live.delta] : []));
    // The first piece is the text so far (several words at once), then word by word.
    expect(live[0]?.split(" ").length).toBeGreaterThanOrEqual(4);
    expect(live.length).toBeGreaterThan(3);
    expect(answer.text.startsWith(live.join(""))).toBe(true);
    // The stored answer comes after the live text, once.
    const stored = got.flatMap((g, i) => ("chunk" in g && g.chunk.type === "text" ? [i] : []));
    expect(stored).toHaveLength(1);
    expect(got.findIndex((g) => "live" in g)).toBeLessThan(stored[0] ?? -1);
  });

  it("cancelling a run stops the model's stream: the model sees the abort and writes no more", async () => {
    let produced = 0;
    let sawAbort = false;
    let started: () => void = () => undefined;
    const writing = new Promise<void>((r) => {
      started = r;
    });
    // A model that writes a word every 50 ms and never finishes on its own.
    const model = new MockLanguageModelV4({
      doStream: async (opts) => {
        opts.abortSignal?.addEventListener("abort", () => {
          sawAbort = true;
        });
        let first = true;
        return {
          stream: new ReadableStream<LanguageModelV4StreamPart>({
            async pull(c) {
              if (first) {
                first = false;
                c.enqueue({ type: "stream-start", warnings: [] });
                c.enqueue({ type: "text-start", id: "t" });
              }
              await new Promise((r) => setTimeout(r, 50));
              if (opts.abortSignal?.aborted) return c.error(opts.abortSignal.reason);
              produced += 1;
              if (produced === 3) started();
              c.enqueue({ type: "text-delta", id: "t", delta: `word${produced} ` });
            },
          }),
        };
      },
    });
    f = await engineFixture(undefined, { resolveModel: () => ({ model, provider: "mock", modelId: "mock", offline: false }) });
    const threadId = await f.newThread("hello");
    const run = await f.prepare(threadId, { kind: "message", text: "hello" });
    const chunks = collect(run);
    await writing;
    expect(await cancelRunJob(f.t.db, threadId, run.runId)).toBe("requested");
    expect(lastData(await chunks, "data-run")?.data.status).toBe("cancelled");
    expect(sawAbort).toBe(true);
    const after = produced;
    await new Promise((r) => setTimeout(r, 300));
    expect(produced).toBe(after);
  }, 30_000);
});
