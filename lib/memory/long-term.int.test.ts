import { afterEach, describe, expect, it } from "vitest";
import { acceptFact, listFacts, searchFacts, upsertFact } from "./long-term";
import { retrieve } from "./retrieve";
import { appendEntry } from "./short-term";
import { type MemoryFixture, memoryFixture } from "./test-fixtures";

/** Long-term memory on a real SQLite file (upsert_fact, search with filters). */
describe("long-term memory", () => {
  let f: MemoryFixture;
  afterEach(async () => f?.cleanup());

  it("upsert trims, de-duplicates by normalised content and merges tags; proposed becomes accepted when stated as accepted", async () => {
    f = await memoryFixture();
    const ws = f.a.workspaceId;
    const one = await upsertFact(f.t.db, { workspaceId: ws, content: "  The API key rotates   monthly. ", tags: ["Security", "security", " Ops "], origin: "manual", status: "proposed" });
    expect(one.created).toBe(true);
    expect(one.fact).toMatchObject({ content: "The API key rotates   monthly.", tags: ["security", "ops"], status: "proposed", origin: "manual", agentRole: "" });
    const two = await upsertFact(f.t.db, { workspaceId: ws, content: "the api key rotates monthly.", tags: ["rotation", "SECURITY"], origin: "remember", status: "accepted" });
    expect(two.created).toBe(false);
    expect(two.fact.id).toBe(one.fact.id);
    expect(two.fact).toMatchObject({ tags: ["security", "ops", "rotation"], status: "accepted", origin: "manual" });
    expect(await f.t.db.memoryFact.count({ where: { workspaceId: ws } })).toBe(1);
    // A fact stated as proposed again stays accepted.
    expect((await upsertFact(f.t.db, { workspaceId: ws, content: "THE API KEY ROTATES MONTHLY.", origin: "promoted", status: "proposed" })).fact.status).toBe("accepted");
  });

  it("refuses bad content and tags with 422 naming the field", async () => {
    f = await memoryFixture();
    const ws = f.a.workspaceId;
    await expect(upsertFact(f.t.db, { workspaceId: ws, content: "   ", origin: "manual" })).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/^content:/) });
    await expect(upsertFact(f.t.db, { workspaceId: ws, content: "x".repeat(2_001), origin: "manual" })).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/^content:/) });
    expect((await upsertFact(f.t.db, { workspaceId: ws, content: "y".repeat(2_000), origin: "manual" })).created).toBe(true);
    const eleven = Array.from({ length: 11 }, (_, i) => `t${i}`);
    await expect(upsertFact(f.t.db, { workspaceId: ws, content: "tags", tags: eleven, origin: "manual" })).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/^tags:/) });
    expect((await upsertFact(f.t.db, { workspaceId: ws, content: "tags", tags: [...eleven.slice(0, 10), "T0"], origin: "manual" })).fact.tags).toHaveLength(10);
  });

  it("lexical search ranks facts matching more query terms first, with prefix and fuzzy matching", async () => {
    f = await memoryFixture();
    const ws = f.a.workspaceId;
    const add = async (content: string, tags: string[] = []) => (await upsertFact(f.t.db, { workspaceId: ws, content, tags, origin: "manual" })).fact.id;
    const both = await add("Deploy keys are kept in the vault.");
    const vault = await add("The vault opens at nine.");
    const deploy = await add("We deploy on Tuesdays.");
    const tagged = await add("Production releases need two approvals.", ["deploy"]);
    const unrelated = await add("Lunch is at noon.");
    const hits = await searchFacts(f.t.db, { workspaceId: ws, query: "deploy vault" });
    expect(hits[0]?.id).toBe(both);
    expect(hits.map((h) => h.id)).toEqual(expect.arrayContaining([vault, deploy, tagged]));
    expect(hits.map((h) => h.id)).not.toContain(unrelated);
    expect(hits.every((h) => h.via.join() === "lexical" && h.score > 0)).toBe(true);
    expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
    expect((await searchFacts(f.t.db, { workspaceId: ws, query: "tues" })).map((h) => h.id)).toEqual([deploy]);
    expect((await searchFacts(f.t.db, { workspaceId: ws, query: "vaukt" })).map((h) => h.id)).toEqual(expect.arrayContaining([both, vault]));
    // An empty query lists the newest first.
    expect((await searchFacts(f.t.db, { workspaceId: ws, query: " ", limit: 2 })).map((h) => h.id)).toEqual([unrelated, tagged]);
  });

  it('filters by tags (all of them), agent role ("" or the role), origin and status', async () => {
    f = await memoryFixture();
    const ws = f.a.workspaceId;
    const add = async (content: string, extra: { tags?: string[]; agentRole?: string; origin?: "manual" | "remember" | "promoted"; status?: "accepted" | "proposed" } = {}) =>
      (await upsertFact(f.t.db, { workspaceId: ws, content, origin: extra.origin ?? "manual", ...extra })).fact.id;
    const everyone = await add("Release notes live in release-notes.md", { tags: ["docs", "release"] });
    const planner = await add("Release planning happens on Mondays", { tags: ["release"], agentRole: "planner" });
    const reviewer = await add("Release reviews check the changelog", { tags: ["release", "docs"], agentRole: "reviewer", origin: "remember" });
    const proposed = await add("Release candidates are tagged rc", { status: "proposed", origin: "promoted" });
    const ids = async (input: Partial<Parameters<typeof searchFacts>[1]>) => (await searchFacts(f.t.db, { workspaceId: ws, query: "release", ...input })).map((h) => h.id).sort();
    expect(await ids({})).toEqual([everyone, planner, reviewer, proposed].sort());
    expect(await ids({ filters: { tags: ["docs"] } })).toEqual([everyone, reviewer].sort());
    expect(await ids({ filters: { tags: ["DOCS", "release"] }, agentRole: "planner" })).toEqual([everyone]);
    expect(await ids({ agentRole: "planner" })).toEqual([everyone, planner, proposed].sort());
    expect(await ids({ filters: { origins: ["remember", "promoted"] } })).toEqual([reviewer, proposed].sort());
    expect(await ids({ status: "proposed" })).toEqual([proposed]);
    expect((await listFacts(f.t.db, { workspaceId: ws, status: "proposed" })).map((x) => x.id)).toEqual([proposed]);
    expect((await listFacts(f.t.db, { workspaceId: ws })).map((x) => x.id)).toEqual([proposed, reviewer, planner, everyone]);
    expect((await listFacts(f.t.db, { workspaceId: ws, query: "mondays" })).map((x) => x.id)).toEqual([planner]);
  });

  it("proposed facts are never retrieved; accepted ones are", async () => {
    f = await memoryFixture();
    const ws = f.a.workspaceId;
    const threadId = await f.a.newThread();
    const { fact } = await upsertFact(f.t.db, { workspaceId: ws, content: "The staging password rotates weekly", origin: "promoted", status: "proposed", source: { threadId, stepId: "s1" } });
    const before = await retrieve(f.t.db, { workspaceId: ws, threadId, query: "staging password", agentRole: "step_executor" });
    expect(before.facts).toEqual([]);
    expect((await retrieve(f.t.db, { workspaceId: ws, threadId, query: "", agentRole: "step_executor" })).facts).toEqual([]);
    const accepted = await acceptFact(f.t.db, { factId: fact.id, userId: f.a.userId });
    expect(accepted.status).toBe("accepted");
    const after = await retrieve(f.t.db, { workspaceId: ws, threadId, query: "staging password", agentRole: "step_executor" });
    expect(after.facts.map((x) => [x.id, x.source])).toEqual([[fact.id, { threadId, stepId: "s1" }]]);
    await expect(acceptFact(f.t.db, { factId: "missing", userId: f.a.userId })).rejects.toMatchObject({ status: 404 });
  });

  it("retrieve gives at most 3 facts and the last 20 short-term entries", async () => {
    f = await memoryFixture();
    const ws = f.a.workspaceId;
    const threadId = await f.a.newThread();
    for (let i = 0; i < 6; i++) await upsertFact(f.t.db, { workspaceId: ws, content: `Cache rule number ${i} for the cache layer`, origin: "manual" });
    const t0 = Date.now();
    for (let i = 0; i < 22; i++) await appendEntry(f.t.db, { threadId, workspaceId: ws, key: `k${i}`, agentId: "a", action: `act ${i}`, result: "r", stepId: null, now: t0 + i });
    const got = await retrieve(f.t.db, { workspaceId: ws, threadId, query: "cache", agentRole: "step_executor", now: t0 + 100 });
    expect(got.facts).toHaveLength(3);
    expect(got.shortTerm.map((e) => e.action)).toEqual(Array.from({ length: 20 }, (_, i) => `act ${i + 2}`));
  });
});
