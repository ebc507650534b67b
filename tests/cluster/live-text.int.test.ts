import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, lastPart, readStream, readUntil, signIn, type StreamChunk } from "../http/client";
import { type Cluster, startCluster } from "./cluster";

/**
 * Live text across processes (docs/durability.md "Live streams"): two web instances that run
 * nothing (RUN_WORKERS=0) and one worker process, on PostgreSQL. The worker writes the
 * answer; followers on either instance get it in pieces while it is written (relayed through
 * LISTEN/NOTIFY), not only once it is stored. The offline model pauses 80 ms between words.
 *
 * Runs only on the PostgreSQL pass (TEST_DATABASE_URL).
 */
const pg = Boolean(process.env.TEST_DATABASE_URL);

/** The answer's pieces (text-delta chunks of `final-…` parts), in order. */
const deltasOf = (chunks: StreamChunk[]) => chunks.filter((c) => c.type === "text-delta" && c.id?.startsWith("final-")).map((c) => c.delta ?? "");

describe.runIf(pg)("live text between instances: 2 web instances and a worker on PostgreSQL", () => {
  let c: Cluster;
  let aliceA: Client;
  let carolB: Client;
  let flowId: string;

  beforeAll(async () => {
    c = await startCluster({ webs: 2, workers: 1, database: "postgresql", env: { OFFLINE_STREAM_WORD_MS: "80" } });
    const [a, , carol] = c.users;
    const [webA, webB] = c.webs;
    if (!a || !carol || !webA?.url || !webB?.url) throw new Error("cluster fixture missing");
    flowId = a.flowId;
    aliceA = await signIn(webA.url, a.email, a.password);
    carolB = await signIn(webB.url, carol.email, carol.password);
  }, 180_000);

  afterAll(async () => {
    await c?.stop();
  });

  async function newThread(): Promise<string> {
    const created = await aliceA.post("/api/threads", { flowId, task: "hello" });
    expect(created.status).toBe(201);
    return ((await created.json()) as { threadId: string }).threadId;
  }

  it("a follower on B gets the answer a worker writes in many pieces before its end, the same text as the starter on A", async () => {
    const threadId = await newThread();
    const res = await aliceA.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: "hello" } });
    expect(res.status).toBe(200);
    const runId = res.headers.get("x-run-id") ?? "";
    const follow = await carolB.fetch(`/api/threads/${threadId}/stream?runId=${runId}`);
    expect(follow.status).toBe(200);
    const [onA, onB] = await Promise.all([readStream(res), readStream(follow)]);
    expect(lastPart(onB, "data-run")?.status).toBe("completed");
    const a = deltasOf(onA);
    const b = deltasOf(onB);
    // Many pieces, not the stored text in one.
    expect(b.length).toBeGreaterThan(3);
    expect(a.length).toBeGreaterThan(3);
    expect(b.join("")).toBe(a.join(""));
    expect(b.join("").length).toBeGreaterThan(50);
    for (const chunks of [onA, onB]) {
      expect(chunks.filter((x) => x.type === "text-start")).toHaveLength(1);
      expect(chunks.filter((x) => x.type === "text-end")).toHaveLength(1);
      // The pieces came before the stored answer's end.
      const end = chunks.findIndex((x) => x.type === "text-end");
      expect(chunks.slice(0, end).filter((x) => x.type === "text-delta").length).toBe(deltasOf(chunks).length);
    }
  }, 90_000);

  it("a follower that joins B mid-answer gets the text so far, then the rest, in order, no piece twice", async () => {
    const threadId = await newThread();
    const res = await aliceA.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: "hello" } });
    const runId = res.headers.get("x-run-id") ?? "";
    let pieces = 0;
    const { head, rest } = await readUntil(res, (x) => x.type === "text-delta" && ++pieces === 3);
    const follow = await carolB.fetch(`/api/threads/${threadId}/stream?runId=${runId}`);
    expect(follow.status).toBe(200);
    const [followed, tail] = await Promise.all([readStream(follow), rest()]);
    const full = deltasOf([...head, ...tail]).join("");
    const got = deltasOf(followed);
    expect(got.length).toBeGreaterThan(2);
    // The first piece is the text so far: more than one word.
    expect(got[0]?.trim().split(/\s+/).length).toBeGreaterThan(1);
    expect(got.join("")).toBe(full);
    expect(full.length).toBeGreaterThan(50);
    expect(followed.filter((x) => x.type === "text-start")).toHaveLength(1);
    expect(lastPart(followed, "data-run")?.status).toBe("completed");
  }, 90_000);
});
