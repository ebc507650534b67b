import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client as HttpClient, readStream, readUntil, signIn, type StreamChunk } from "./client";
import { startServer, type TestServer } from "./server";

/**
 * Answers that stream, over HTTP against the built app (docs/runs.md "Streaming",
 * docs/langgraph-api.md#stream-modes): the run stream carries the answer in many text
 * deltas, a follower joining mid-answer gets the text so far then the rest, and the official
 * LangGraph SDK gets partial message chunks in the messages-tuple and messages modes. The
 * offline model pauses 80 ms between words here, so an answer takes a few seconds.
 */

type SdkChunk = { event: string; data: unknown; id?: string };

const deltasOf = (chunks: StreamChunk[], prefix = "final-") => chunks.filter((c) => c.type === "text-delta" && c.id?.startsWith(prefix)).map((c) => c.delta ?? "");

describe("answers that stream over HTTP", () => {
  let s: TestServer;
  let alice: HttpClient;
  let carol: HttpClient;
  let sdk: Client;
  let flowId: string;

  beforeAll(async () => {
    s = await startServer({ OFFLINE_STREAM_WORD_MS: "80" });
    const [a, , c] = s.users;
    if (!a || !c) throw new Error("users missing");
    flowId = a.flowId;
    alice = await signIn(s.url, a.email, a.password);
    carol = await signIn(s.url, c.email, c.password);
    const made = await alice.post("/api/keys", { name: "stream test" });
    expect(made.status).toBe(201);
    sdk = new Client({ apiUrl: `${s.url}/api/langgraph`, apiKey: ((await made.json()) as { key: string }).key });
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
  });

  async function newThread(task: string): Promise<string> {
    const created = await alice.post("/api/threads", { flowId, task });
    expect(created.status).toBe(201);
    return ((await created.json()) as { threadId: string }).threadId;
  }

  it("the run stream carries one answer in many text deltas; a reload replays it whole", async () => {
    const threadId = await newThread("hello");
    const res = await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: "hello" } });
    expect(res.status).toBe(200);
    const chunks = await readStream(res);
    const deltas = deltasOf(chunks);
    expect(deltas.length).toBeGreaterThan(5);
    const ids = new Set(chunks.filter((c) => c.type === "text-start").map((c) => c.id));
    expect(ids.size).toBe(1);
    expect(chunks.filter((c) => c.type === "text-end")).toHaveLength(1);
    // The stored answer is the same text, once (what a reload replays).
    const replay = await readStream(await alice.fetch(`/api/threads/${threadId}/stream?runId=${res.headers.get("x-run-id")}`));
    expect(deltasOf(replay)).toEqual([deltas.join("")]);
  }, 60_000);

  it("a follower joining mid-answer gets the text so far, then the rest live", async () => {
    const threadId = await newThread("hello");
    const res = await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: "hello" } });
    // Wait until the answer has started, then carol (an approver of the workspace) opens the thread.
    // Three pieces read here means three words were written: the text so far holds them all.
    let pieces = 0;
    const { head, rest } = await readUntil(res, (c) => c.type === "text-delta" && ++pieces === 3);
    const follow = await carol.fetch(`/api/threads/${threadId}/stream?runId=${res.headers.get("x-run-id")}`);
    expect(follow.status).toBe(200);
    const followed = await readStream(follow);
    const full = deltasOf([...head, ...(await rest())]).join("");
    const got = deltasOf(followed);
    // Several pieces: the text so far (more than one word), then word by word.
    expect(got.length).toBeGreaterThan(3);
    expect(got[0]?.trim().split(/\s+/).length).toBeGreaterThan(1);
    expect(got.join("")).toBe(full);
    expect(full.length).toBeGreaterThan(50);
    expect(followed.filter((c) => c.type === "text-start")).toHaveLength(1);
  }, 60_000);

  it("the LangGraph SDK streams partial message chunks with messages-tuple, and partial then complete messages with messages", async () => {
    const thread = await sdk.threads.create();
    const tuple: SdkChunk[] = [];
    for await (const c of sdk.runs.stream(thread.thread_id, flowId, { input: { messages: [{ role: "user", content: "hello" }] }, streamMode: "messages-tuple" }) as AsyncIterable<SdkChunk>)
      tuple.push(c);
    const pieces = tuple.filter((c) => c.event === "messages").map((c) => c.data as [{ type: string; content: string; id: string }, { langgraph_node: string }]);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.every(([m, meta]) => m.type === "AIMessageChunk" && meta.langgraph_node === "finalizer")).toBe(true);
    expect(new Set(pieces.map(([m]) => m.id)).size).toBe(1);
    const answer = pieces.map(([m]) => m.content).join("");
    const state = await sdk.threads.getState(thread.thread_id);
    const messages = (state.values as { messages: { type: string; content: string }[] }).messages;
    expect(messages.at(-1)?.content).toBe(answer);

    const thread2 = await sdk.threads.create();
    const whole: SdkChunk[] = [];
    for await (const c of sdk.runs.stream(thread2.thread_id, flowId, { input: { messages: [{ role: "user", content: "hello" }] }, streamMode: "messages" }) as AsyncIterable<SdkChunk>) whole.push(c);
    const events = whole.map((c) => c.event).filter((e) => e.startsWith("messages"));
    expect(events[0]).toBe("messages/metadata");
    expect(events.at(-1)).toBe("messages/complete");
    const partials = whole.filter((c) => c.event === "messages/partial").map((c) => (c.data as { content: string }[])[0]?.content ?? "");
    expect(partials.length).toBeGreaterThan(5);
    // Each partial holds the text so far: it grows, and ends as the complete message.
    for (let i = 1; i < partials.length; i++) expect(partials[i]?.startsWith(partials[i - 1] ?? "")).toBe(true);
    const complete = (whole.find((c) => c.event === "messages/complete")?.data as { content: string }[])[0]?.content;
    expect(complete).toBe(answer);
  }, 60_000);
});
