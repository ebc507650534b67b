import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { createFlow } from "../../lib/db/flows";
import { memoryAssistant } from "../../templates/memory-assistant";
import { type Client, lastPart, readStream, signIn, type StreamChunk } from "./client";
import { startRun } from "./runs";
import { startServer, type TestServer } from "./server";

/**
 * Following runs over HTTP against the built app (docs/architecture.md "Live streams"): a
 * second client opened mid-run gets the same parts as the client that started it, in
 * order, without duplicates; a reload (GET) after an approval pause replays the run and
 * follows the next one; the thread's events announce runs started elsewhere, and to a client
 * back from a hidden spell, the run it missed.
 */

/** A step that takes about 1.5 s (a busy loop in the sandbox), so a follower can join mid-run. */
const SLOW_TASK = "Compute `const t = Date.now(); while (Date.now() - t < 1500) {} 6 * 7`";

/** The chunks of a UI message stream, as they arrive, and when the stream ended (ms since the epoch). */
async function readTimed(res: Response): Promise<{ chunks: StreamChunk[]; firstAt: number; endedAt: number }> {
  const firstAt = Date.now();
  const chunks = await readStream(res);
  return { chunks, firstAt, endedAt: Date.now() };
}

/**
 * The chunks with each text part's deltas joined into one, and without transient parts: a
 * live stream gives an answer in pieces as the model writes it, and a running step's text as
 * transient `data-steptext` parts, which are never stored; a replay of the finished run gives
 * the answer in one piece and the step's text in its `data-step` (docs/runs.md "Streaming").
 * The message they build is the same.
 */
function joinedText(chunks: StreamChunk[]): StreamChunk[] {
  const out: StreamChunk[] = [];
  for (const c of chunks) {
    if ((c as { transient?: boolean }).transient === true) continue;
    const prev = out.at(-1) as { type?: string; id?: string; delta?: string } | undefined;
    const cur = c as { type?: string; id?: string; delta?: string };
    if (cur.type === "text-delta" && prev?.type === "text-delta" && prev.id === cur.id) out[out.length - 1] = { ...prev, delta: `${prev.delta ?? ""}${cur.delta ?? ""}` } as StreamChunk;
    else out.push(c);
  }
  return out;
}

/** The chunks without transient parts (a running step's text, never stored). */
function storedParts(chunks: StreamChunk[]): StreamChunk[] {
  return chunks.filter((c) => (c as { transient?: boolean }).transient !== true);
}

/** Each step's text as its transient `data-steptext` pieces build it, each placed at its offset. */
function stepTexts(chunks: StreamChunk[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of chunks as { type?: string; data?: { stepId: string; at: number; delta: string } }[]) {
    if (c.type !== "data-steptext" || !c.data) continue;
    const { stepId, at, delta } = c.data;
    const text = out[stepId] ?? "";
    if (at <= text.length) out[stepId] = text.slice(0, at) + delta + text.slice(at + delta.length);
  }
  return out;
}

/** Reads server-sent events from a response until `until` holds or `ms` pass; then cancels. */
async function readEvents(res: Response, until: (text: string) => boolean, ms = 10_000): Promise<string> {
  const reader = res.body?.getReader();
  if (!reader) throw new Error("no body");
  const decoder = new TextDecoder();
  let text = "";
  const deadline = Date.now() + ms;
  while (!until(text) && Date.now() < deadline) {
    const next = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), Math.max(1, deadline - Date.now())))]);
    if (!next || next.done) break;
    text += decoder.decode(next.value, { stream: true });
  }
  await reader.cancel().catch(() => undefined);
  return text;
}

describe("following a run from another client", () => {
  let s: TestServer;
  let alice: Client;
  let carol: Client;
  let victor: Client;
  let bob: Client;
  let slowFlowId: string;

  beforeAll(async () => {
    s = await startServer();
    const [a, b, c, v] = s.users;
    if (!a || !b || !c || !v) throw new Error("users missing");
    alice = await signIn(s.url, a.email, a.password);
    bob = await signIn(s.url, b.email, b.password);
    carol = await signIn(s.url, c.email, c.password);
    victor = await signIn(s.url, v.email, v.password);
    const db = createDb(s.dbUrl);
    try {
      // In alice's workspace: a flow whose agent may run scripts.
      const flow = await createFlow(db, a.id, memoryAssistant);
      await db.flow.update({ where: { id: flow.id }, data: { workspaceId: (await db.flow.findUniqueOrThrow({ where: { id: a.flowId } })).workspaceId } });
      slowFlowId = flow.id;
    } finally {
      await db.$disconnect();
    }
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
  });

  it("a second client opening GET mid-run receives the same parts, in order, without duplicates", async () => {
    const created = await alice.post("/api/threads", { flowId: slowFlowId, task: SLOW_TASK });
    expect(created.status).toBe(201);
    const { threadId } = (await created.json()) as { threadId: string };
    expect((await carol.fetch(`/api/threads/${threadId}/stream`)).status).toBe(204);
    const posting = alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: SLOW_TASK } }).then(readTimed);
    // The run is active as soon as its row exists: carol (an approver) and victor (a viewer) follow it.
    let follow: Response | null = null;
    const deadline = Date.now() + 10_000;
    while (!follow && Date.now() < deadline) {
      const res = await carol.fetch(`/api/threads/${threadId}/stream`);
      if (res.status === 200) follow = res;
      else await new Promise((r) => setTimeout(r, 50));
    }
    if (!follow) throw new Error("the run never became followable");
    expect(follow.headers.get("content-type")).toMatch(/text\/event-stream/);
    const viewer = await victor.fetch(`/api/threads/${threadId}/stream`);
    expect(viewer.status).toBe(200);
    const [own, followed, viewed] = await Promise.all([posting, readTimed(follow), readTimed(viewer)]);
    // Joined before the run ended.
    expect(followed.firstAt).toBeLessThan(own.endedAt);
    const runId = follow.headers.get("x-run-id");
    expect(own.chunks[0]).toEqual({ type: "start", messageId: `run-${runId}` });
    expect(own.chunks.length).toBeGreaterThan(8);
    // The stored parts come in the same order to everyone; a running step's text (transient
    // pieces, placed by offset: docs/runs.md "Streaming") may interleave with them differently,
    // and builds the same text for each step it saw running.
    expect(storedParts(followed.chunks)).toEqual(storedParts(own.chunks));
    expect(storedParts(viewed.chunks)).toEqual(storedParts(own.chunks));
    expect(Object.keys(stepTexts(own.chunks)).length).toBeGreaterThan(0);
    expect(stepTexts(own.chunks)).toMatchObject(stepTexts(followed.chunks));
    expect(stepTexts(own.chunks)).toMatchObject(stepTexts(viewed.chunks));
    const parts = followed.chunks.filter((c) => c.type.startsWith("data-")).map((c) => JSON.stringify(c));
    expect(new Set(parts).size).toBe(parts.length);
    expect(lastPart(followed.chunks, "data-run")?.status).toBe("completed");
    expect(followed.chunks.map((c) => c.type)).toContain("text-delta");
    // A cursor: only the events after it.
    const rows = createDb(s.dbUrl);
    try {
      const events = await rows.runEvent.findMany({ where: { threadId, runId: runId ?? "" }, orderBy: { seq: "asc" } });
      const cut = events.at(-3)?.seq ?? 0;
      const tail = await readStream(await carol.fetch(`/api/threads/${threadId}/stream?runId=${runId}&after=${cut}`));
      expect(tail.slice(1, -1)).toEqual(own.chunks.slice(-3, -1));
    } finally {
      await rows.$disconnect();
    }
    // Someone outside the workspace sees nothing; a bad cursor is a 422 naming the field.
    expect((await bob.fetch(`/api/threads/${threadId}/stream`)).status).toBe(404);
    const bad = await carol.fetch(`/api/threads/${threadId}/stream?after=-1`);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toMatch(/after/);
  });

  it("a reload after an approval pause replays the paused run (tokens only for deciders) and follows the run the decision starts", async () => {
    const a = s.users[0];
    if (!a) throw new Error("alice missing");
    const { threadId, approval } = await startRun(alice, a.flowId);
    // Nothing is running while the run waits for the decision.
    expect((await alice.fetch(`/api/threads/${threadId}/stream`)).status).toBe(204);
    const db = createDb(s.dbUrl);
    const paused = await db.run.findFirstOrThrow({ where: { threadId }, orderBy: { startedAt: "desc" } });
    await db.$disconnect();
    const replay = await readStream(await alice.fetch(`/api/threads/${threadId}/stream?runId=${paused.id}`));
    expect(lastPart(replay, "data-run")?.status).toBe("awaiting_approval");
    expect(lastPart(replay, "data-approval")).toMatchObject({ approvalId: approval.approvalId, token: approval.token });
    const viewed = await readStream(await victor.fetch(`/api/threads/${threadId}/stream?runId=${paused.id}`));
    expect(lastPart(viewed, "data-approval")).toMatchObject({ approvalId: approval.approvalId, token: "" });

    // Alice's open run view hears of the run carol's decision starts (from the inbox, say).
    const events = await alice.fetch(`/api/threads/${threadId}/events`);
    expect(events.status).toBe(200);
    const announced = readEvents(events, (t) => t.includes("event: run"));
    const decided = await carol.post(`/api/threads/${threadId}/stream`, {
      input: { kind: "decision", approvalId: approval.approvalId, decision: "approve", token: approval.token, argsHash: approval.argsHash },
    });
    expect(decided.status).toBe(200);
    const decidedChunks = await readStream(decided);
    const nextRun = String(decidedChunks[0]?.type === "start" ? (decidedChunks[0] as { messageId?: string }).messageId : "").replace(/^run-/, "");
    expect(await announced).toContain(`data: {"runId":"${nextRun}"}`);
    const resumed = await readStream(await alice.fetch(`/api/threads/${threadId}/stream?runId=${nextRun}`));
    expect(joinedText(resumed)).toEqual(joinedText(decidedChunks));
    expect(lastPart(resumed, "data-run")?.status).toBe("completed");
    expect((await bob.fetch(`/api/threads/${threadId}/events`)).status).toBe(404);

    // A view that was hidden meanwhile names the last run it shows: the run it missed is announced at once.
    const missed = await readEvents(await alice.fetch(`/api/threads/${threadId}/events?after=${paused.id}`), (t) => t.includes("event: run"), 3_000);
    expect(missed).toContain(`data: {"runId":"${nextRun}"}`);
    const upToDate = await readEvents(await alice.fetch(`/api/threads/${threadId}/events?after=${nextRun}`), (t) => t.includes("event: run"), 1_000);
    expect(upToDate).not.toContain("event: run");
    // A view that knew of no run names none: the thread's latest run is announced.
    const knewNone = await readEvents(await alice.fetch(`/api/threads/${threadId}/events?after=`), (t) => t.includes("event: run"), 3_000);
    expect(knewNone).toContain(`data: {"runId":"${nextRun}"}`);
  });
});
