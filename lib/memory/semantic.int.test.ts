import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createEmbedder, type Embedder } from "./embeddings";
import { searchFacts, upsertFact } from "./long-term";
import { retrieve } from "./retrieve";
import { type EmbeddingServer, type MemoryFixture, memoryFixture, startEmbeddingServer } from "./test-fixtures";
import { openHostsForTests } from "../net/operator-open-hosts";

/**
 * Semantic memory search through the AI SDK against a local server on 127.0.0.1 that speaks
 * the OpenAI `/embeddings` protocol with deterministic, synonym-aware vectors (search is
 * semantic + filters, de-duplicated after retrieval).
 */
describe("semantic memory search", () => {
  let server: EmbeddingServer;
  let embedder: Embedder;
  let f: MemoryFixture;
  let closeOpened: () => void = () => {};
  beforeAll(async () => {
    server = await startEmbeddingServer();
    // An embedding server on loopback is private: the operator opens it (OUTBOUND_ALLOW_PRIVATE).
    closeOpened = openHostsForTests([new URL(server.baseURL).host]);
    embedder = createEmbedder({ baseURL: server.baseURL, model: "fake-synonyms", apiKey: "test-key" });
  });
  afterAll(async () => {
    closeOpened();
    await server?.close();
  });
  afterEach(async () => f?.cleanup());

  it("finds a fact by meaning that lexical search misses, and merges both searches without duplicates", async () => {
    f = await memoryFixture();
    const ws = f.a.workspaceId;
    const threadId = await f.a.newThread();
    const add = async (content: string) => (await upsertFact(f.t.db, { workspaceId: ws, content, origin: "manual", embedder })).fact.id;
    const invoices = await add("Invoices are settled through Stripe every Friday.");
    const finance = await add("Billing and payment questions go to finance.");
    const financeTwin = await add("Billing and payment questions go to finance.");
    const coffee = await add("The coffee machine is on floor 3.");
    const stored = await f.t.db.memoryFact.findUniqueOrThrow({ where: { id: invoices } });
    expect(stored.embeddingModel).toBe("fake-synonyms");
    expect(JSON.parse(stored.embedding ?? "[]")).toHaveLength(69);

    const query = "billing payments weekly";
    // Lexical alone: the invoices fact shares no word with the query.
    const lexical = await searchFacts(f.t.db, { workspaceId: ws, query });
    expect(lexical.map((h) => h.id)).not.toContain(invoices);
    expect(lexical.some((h) => h.id === finance || h.id === financeTwin)).toBe(true);

    const got = await retrieve(f.t.db, { workspaceId: ws, threadId, query, agentRole: "step_executor", embedder });
    const ids = got.facts.map((h) => h.id);
    expect(ids).toContain(invoices);
    expect(got.facts.find((h) => h.id === invoices)?.via).toEqual(["semantic"]);
    // The finance fact was found by both searches: once, with both in `via`; its
    // near-identical twin is folded into it.
    const financeHits = got.facts.filter((h) => h.id === finance || h.id === financeTwin);
    expect(financeHits).toHaveLength(1);
    expect(financeHits[0]?.via).toEqual(["lexical", "semantic"]);
    // Found by both searches, it ranks first (reciprocal rank fusion).
    expect(ids[0]).toBe(financeHits[0]?.id);
    expect(ids).not.toContain(coffee);
    expect(new Set(ids).size).toBe(ids.length);
    expect(server.received).toContain(query);
  });

  it("embeds facts stored without a vector when a search first needs them", async () => {
    f = await memoryFixture();
    const ws = f.a.workspaceId;
    const { fact } = await upsertFact(f.t.db, { workspaceId: ws, content: "Our automobile fleet is serviced in March.", origin: "manual" });
    const before = await f.t.db.memoryFact.findUniqueOrThrow({ where: { id: fact.id } });
    expect(before.embedding).toBeNull();
    const hits = await searchFacts(f.t.db, { workspaceId: ws, query: "vehicle", embedder });
    expect(hits.map((h) => [h.id, h.via])).toEqual([[fact.id, ["semantic"]]]);
    const after = await f.t.db.memoryFact.findUniqueOrThrow({ where: { id: fact.id } });
    expect(after.embeddingModel).toBe("fake-synonyms");
    expect(after.updatedAt.getTime()).toBe(before.updatedAt.getTime());
  });

  it("an embedding server that fails leaves the lexical results", async () => {
    f = await memoryFixture();
    const ws = f.a.workspaceId;
    const broken = createEmbedder({ baseURL: `${server.baseURL}/nowhere`, model: "fake-synonyms" });
    const { fact } = await upsertFact(f.t.db, { workspaceId: ws, content: "Billing is monthly.", origin: "manual", embedder: broken });
    expect((await f.t.db.memoryFact.findUniqueOrThrow({ where: { id: fact.id } })).embedding).toBeNull();
    expect((await searchFacts(f.t.db, { workspaceId: ws, query: "billing", embedder: broken })).map((h) => [h.id, h.via])).toEqual([[fact.id, ["lexical"]]]);
  });
});
