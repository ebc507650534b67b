import { describe, expect, it } from "vitest";
import type { LiveChunk, RunChunk } from "./ui-parts";
import { runStreamResponse, stepIdOfLive } from "./run-stream-response";

/** The UI message chunks of a response (server-sent `data:` lines). */
async function chunksOf(res: Response): Promise<Record<string, unknown>[]> {
  const text = await res.text();
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map((l) => JSON.parse(l.slice(6)) as Record<string, unknown>);
}

async function* items(list: ({ chunk: RunChunk } | { live: LiveChunk })[]) {
  for (const i of list) yield i;
}

const delta = (id: string, d: string, node: "finalizer" | "executor" = "finalizer") => ({ live: { type: "text-delta" as const, id, node, delta: d } });
const text = (id: string, t: string) => ({ chunk: { type: "text" as const, id, text: t } });

/** The run stream's text parts (docs/runs.md "Streaming"): live deltas grow the answer's part; the stored answer ends it. */
describe("runStreamResponse with live text", () => {
  it("writes each delta of the answer, then only what the stored answer adds, then ends the part", async () => {
    const res = runStreamResponse(items([delta("final-1", "Hello"), delta("final-1", " there,"), delta("final-1", " friend."), text("final-1", "Hello there, friend.\n\nNot done: x")]), {
      runId: "r1",
    });
    const parts = (await chunksOf(res)).filter((c) => String(c.type).startsWith("text-"));
    expect(parts).toEqual([
      { type: "text-start", id: "final-1" },
      { type: "text-delta", id: "final-1", delta: "Hello" },
      { type: "text-delta", id: "final-1", delta: " there," },
      { type: "text-delta", id: "final-1", delta: " friend." },
      { type: "text-delta", id: "final-1", delta: "\n\nNot done: x" },
      { type: "text-end", id: "final-1" },
    ]);
  });

  it("an answer never streamed comes whole; a step's live text is not a text part; a stored answer that does not go on from the deltas gets a part of its own", async () => {
    const res = runStreamResponse(
      items([delta("step-s0-1-1", "Reading", "executor"), text("question-1", "Which file?"), delta("final-2", "Partial"), text("final-2", "The answer could not be written")]),
      { runId: "r1" },
    );
    const parts = (await chunksOf(res)).filter((c) => String(c.type).startsWith("text-"));
    expect(parts).toEqual([
      { type: "text-start", id: "question-1" },
      { type: "text-delta", id: "question-1", delta: "Which file?" },
      { type: "text-end", id: "question-1" },
      { type: "text-start", id: "final-2" },
      { type: "text-delta", id: "final-2", delta: "Partial" },
      { type: "text-end", id: "final-2" },
      { type: "text-start", id: "final-2-final" },
      { type: "text-delta", id: "final-2-final", delta: "The answer could not be written" },
      { type: "text-end", id: "final-2-final" },
    ]);
  });

  it("writes a running step's text as transient data-steptext parts with its step and offset, never as a text part", async () => {
    const at = (id: string, d: string, offset: number) => ({ live: { type: "text-delta" as const, id, node: "executor" as const, delta: d, at: offset } });
    const res = runStreamResponse(
      items([at("step-s-1-1-2", "Reading notes.md", 0), at("step-s-1-1-2", " and", 16), { live: { type: "text-end", id: "step-s-1-1-2", node: "executor", text: "Reading notes.md and" } }]),
      { runId: "r1" },
    );
    const chunks = await chunksOf(res);
    expect(chunks.filter((c) => String(c.type).startsWith("text-"))).toEqual([]);
    expect(chunks.filter((c) => c.type === "data-steptext")).toEqual([
      { type: "data-steptext", id: "step-s-1-1-2", data: { stepId: "s-1", at: 0, delta: "Reading notes.md" }, transient: true },
      { type: "data-steptext", id: "step-s-1-1-2", data: { stepId: "s-1", at: 16, delta: " and" }, transient: true },
    ]);
    expect(stepIdOfLive("final-1")).toBeNull();
    expect(stepIdOfLive("step-abc-def-2-10")).toBe("abc-def");
  });

  it("ends an answer cut off mid-way (a cancel) with what was written", async () => {
    const res = runStreamResponse(items([delta("final-1", "Half")]), { runId: "r1" });
    const parts = (await chunksOf(res)).map((c) => c.type);
    expect(parts).toEqual(["start", "text-start", "text-delta", "text-end", "finish"]);
  });
});
