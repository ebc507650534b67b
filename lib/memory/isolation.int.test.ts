import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEmbedder, type Embedder } from "./embeddings";
import { listFacts, searchFacts, upsertFact } from "./long-term";
import { retrieve } from "./retrieve";
import { appendEntry } from "./short-term";
import { type EmbeddingServer, type MemoryFixture, memoryFixture, startEmbeddingServer } from "./test-fixtures";

/** Tenant isolation (nobody reads another tenant's memory). */
describe("memory isolation between workspaces", () => {
  let server: EmbeddingServer;
  let embedder: Embedder;
  let f: MemoryFixture;
  beforeAll(async () => {
    server = await startEmbeddingServer();
    embedder = createEmbedder({ baseURL: server.baseURL, model: "fake-synonyms" });
  });
  afterAll(async () => server?.close());
  afterEach(async () => f?.cleanup());

  it("search and retrieve for A never return B's facts, even with identical text", async () => {
    f = await memoryFixture();
    const same = "Deploys happen on Tuesdays after the billing run.";
    const a = (await upsertFact(f.t.db, { workspaceId: f.a.workspaceId, content: same, origin: "manual", embedder })).fact;
    const b = (await upsertFact(f.t.db, { workspaceId: f.b.workspaceId, content: same, origin: "manual", embedder })).fact;
    const bOnly = (await upsertFact(f.t.db, { workspaceId: f.b.workspaceId, content: "Invoices are paid on Fridays.", origin: "manual", embedder })).fact;
    expect(a.id).not.toBe(b.id);
    const threadA = await f.a.newThread();
    await appendEntry(f.t.db, { threadId: threadA, workspaceId: f.a.workspaceId, key: "k", agentId: "x", action: "a", result: "r", stepId: null });

    for (const query of ["deploys tuesdays", "invoice payment", "billing", ""]) {
      const found = [
        ...(await searchFacts(f.t.db, { workspaceId: f.a.workspaceId, query, embedder })),
        ...(await searchFacts(f.t.db, { workspaceId: f.a.workspaceId, query })),
        ...(await retrieve(f.t.db, { workspaceId: f.a.workspaceId, threadId: threadA, query, agentRole: "step_executor", embedder })).facts,
        ...(await listFacts(f.t.db, { workspaceId: f.a.workspaceId, query })),
      ];
      expect(found.every((x) => x.workspaceId === f.a.workspaceId && x.id !== b.id && x.id !== bOnly.id)).toBe(true);
    }
    expect((await searchFacts(f.t.db, { workspaceId: f.a.workspaceId, query: "deploys" })).map((x) => x.id)).toEqual([a.id]);
  });

  it("retrieve with B's thread and A's workspace is refused", async () => {
    f = await memoryFixture();
    const threadB = await f.b.newThread();
    await appendEntry(f.t.db, { threadId: threadB, workspaceId: f.b.workspaceId, key: "k", agentId: "x", action: "secret", result: "B's secret", stepId: null });
    await expect(retrieve(f.t.db, { workspaceId: f.a.workspaceId, threadId: threadB, query: "secret", agentRole: "step_executor" })).rejects.toMatchObject({
      status: 403,
      reason: "cross_workspace",
    });
    await expect(retrieve(f.t.db, { workspaceId: f.a.workspaceId, threadId: "no-such-thread", query: "", agentRole: "x" })).rejects.toMatchObject({ status: 404 });
  });
});
