import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import type { FactView, RetrievedFact, ShortTermEntry } from "../../lib/memory/types";
import { type Client, lastPart, readStream, signIn } from "./client";
import { startRun } from "./runs";
import { startServer, type TestServer } from "./server";

/**
 * The memory routes (docs/architecture.md#memory) over real HTTP against the built app and a real SQLite
 * file: add, search, accept and forget facts; tenant isolation (another workspace's user
 * gets 404); roles; bad input named in a 4xx; promote, summarize and delete a thread.
 */

type ErrorBody = { error: { code: string; reason: string; message: string; issues?: { path: string }[] } };

describe("memory over HTTP", () => {
  let s: TestServer;
  let alice: Client;
  let bob: Client;
  let carol: Client;
  let victor: Client;
  let workspaceA: string;

  beforeAll(async () => {
    s = await startServer();
    const [a, b, c, v] = s.users;
    if (!a || !b || !c || !v) throw new Error("users");
    [alice, bob, carol, victor] = await Promise.all([signIn(s.url, a.email, a.password), signIn(s.url, b.email, b.password), signIn(s.url, c.email, c.password), signIn(s.url, v.email, v.password)]);
    const db = createDb(s.dbUrl);
    workspaceA = (await db.flow.findUniqueOrThrow({ where: { id: a.flowId } })).workspaceId;
    await db.$disconnect();
  }, 120_000);
  afterAll(async () => s?.stop());

  const memoryUrl = (q = "") => `/api/workspaces/${workspaceA}/memory${q}`;
  const factsOf = async (c: Client, q = "") => {
    const res = await c.fetch(memoryUrl(q));
    expect(res.status).toBe(200);
    return ((await res.json()) as { facts: (FactView | RetrievedFact)[] }).facts;
  };
  const del = (c: Client, p: string) => c.fetch(p, { method: "DELETE" });

  it("add, search, accept and forget a fact; after forgetting, it answers 404", async () => {
    const created = await alice.post(memoryUrl(), { content: "  Deploys happen on Tuesdays.  ", tags: ["Ops", "ops"] });
    expect(created.status).toBe(201);
    const { fact } = (await created.json()) as { fact: FactView };
    expect(fact).toMatchObject({ workspaceId: workspaceA, content: "Deploys happen on Tuesdays.", tags: ["ops"], origin: "manual", status: "accepted", createdById: s.users[0]?.id });
    const again = await alice.post(memoryUrl(), { content: "deploys happen on tuesdays.", tags: ["release"] });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { fact: FactView }).fact).toMatchObject({ id: fact.id, tags: ["ops", "release"] });

    const hits = await factsOf(alice, "?q=deploy");
    expect(hits.map((h) => h.id)).toContain(fact.id);
    expect((hits.find((h) => h.id === fact.id) as RetrievedFact).via).toEqual(["lexical"]);
    expect((await factsOf(alice, "?tag=ops")).map((h) => h.id)).toEqual([fact.id]);
    expect((await factsOf(alice)).map((h) => h.id)).toContain(fact.id);
    expect((await factsOf(alice, "?status=proposed&q=")).map((h) => h.id)).not.toContain(fact.id);
    // Any member reads; a viewer cannot add.
    expect((await factsOf(victor, "?q=tuesdays")).map((h) => h.id)).toContain(fact.id);
    const refused = await victor.post(memoryUrl(), { content: "Viewers cannot add facts." });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as ErrorBody).error.reason).toBe("role_forbidden");
    expect((await del(victor, `/api/memory/facts/${fact.id}`)).status).toBe(403);
    expect((await carol.post(memoryUrl(), { content: "Approvers can add facts." })).status).toBe(201);

    const forgotten = await del(alice, `/api/memory/facts/${fact.id}`);
    expect(forgotten.status).toBe(200);
    expect(await forgotten.json()).toEqual({ removed: 1 });
    expect((await del(alice, `/api/memory/facts/${fact.id}`)).status).toBe(404);
    expect((await alice.post(`/api/memory/facts/${fact.id}/accept`, {})).status).toBe(404);
    expect((await factsOf(alice, "?q=deploy")).map((h) => h.id)).not.toContain(fact.id);
  });

  it("another workspace's user gets 404 for its memory, facts and threads", async () => {
    const { fact } = (await (await alice.post(memoryUrl(), { content: "Alice's secret: the vault opens at nine." })).json()) as { fact: FactView };
    expect((await bob.fetch(memoryUrl())).status).toBe(404);
    expect((await bob.fetch(memoryUrl("?q=vault"))).status).toBe(404);
    expect((await bob.post(memoryUrl(), { content: "Bob writes into Alice's memory." })).status).toBe(404);
    expect((await del(bob, `/api/memory/facts/${fact.id}`)).status).toBe(404);
    expect((await bob.post(`/api/memory/facts/${fact.id}/accept`, {})).status).toBe(404);
    const { threadId } = await startRun(alice, s.users[0]?.flowId ?? "");
    expect((await bob.fetch(`/api/threads/${threadId}/memory`)).status).toBe(404);
    expect((await del(bob, `/api/threads/${threadId}/memory`)).status).toBe(404);
    expect((await bob.post(`/api/threads/${threadId}/memory/promote`, {})).status).toBe(404);
    expect((await bob.post(`/api/threads/${threadId}/memory/summarize`, {})).status).toBe(404);
    expect((await del(bob, `/api/threads/${threadId}`)).status).toBe(404);
    // Bob's own workspace search never shows Alice's fact.
    const db = createDb(s.dbUrl);
    const workspaceB = (await db.flow.findUniqueOrThrow({ where: { id: s.users[1]?.flowId ?? "" } })).workspaceId;
    await db.$disconnect();
    const res = await bob.fetch(`/api/workspaces/${workspaceB}/memory?q=vault`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { facts: FactView[] }).facts).toEqual([]);
  });

  it("bad input is a 4xx naming the field", async () => {
    const expectField = async (res: Response, status: number, field: string) => {
      expect(res.status).toBe(status);
      expect(((await res.json()) as ErrorBody).error.message.startsWith(`${field}:`)).toBe(true);
    };
    await expectField(await alice.post(memoryUrl(), { content: "   " }), 422, "content");
    await expectField(await alice.post(memoryUrl(), { content: "x".repeat(2_001) }), 422, "content");
    await expectField(await alice.post(memoryUrl(), {}), 422, "content");
    await expectField(await alice.post(memoryUrl(), { content: "ok", tags: "ops" }), 422, "tags");
    await expectField(await alice.post(memoryUrl(), { content: "ok", tags: Array.from({ length: 11 }, (_, i) => `t${i}`) }), 422, "tags");
    await expectField(await alice.post(memoryUrl(), { content: "ok", agentRole: "r".repeat(65) }), 422, "agentRole");
    await expectField(await alice.fetch(memoryUrl("?status=maybe")), 422, "status");
    const notJson = await alice.fetch(memoryUrl(), { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect(notJson.status).toBe(400);
  });

  it("promote, summarize, accept, clear, then delete the thread: its data is gone", async () => {
    const { threadId, approval } = await startRun(alice, s.users[0]?.flowId ?? "");
    const approved = await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "decision", decision: "approve", approvalId: approval.approvalId, token: approval.token } });
    expect(lastPart(await readStream(approved), "data-run")?.status).toBe("completed");

    const view = async (c: Client) => {
      const res = await c.fetch(`/api/threads/${threadId}/memory`);
      expect(res.status).toBe(200);
      return (await res.json()) as { entries: ShortTermEntry[]; summary: string | null; proposed: FactView[] };
    };
    // The completed run was summarized and the facts of its steps (the decisions and dates of
    // notes.md; nothing from "Wrote N bytes") proposed by the server's after-run hook
    // (task.completed), before the stream ended.
    const auto = await view(victor);
    const facts = auto.proposed;
    expect(facts.length).toBe(3);
    expect(facts.every((f) => f.content.startsWith("notes.md: ") && !/bytes|characters from/.test(f.content))).toBe(true);
    expect(facts.every((f) => f.status === "proposed" && f.source.threadId === threadId && f.tags.includes("promoted"))).toBe(true);
    expect(auto.summary).toMatch(/^Task: Summarize notes\.md into summary\.md/);
    expect(auto.entries.length).toBeGreaterThan(0);

    // Promoting again by hand finds nothing new; a viewer may not.
    expect((await victor.post(`/api/threads/${threadId}/memory/promote`, {})).status).toBe(403);
    const promoted = await alice.post(`/api/threads/${threadId}/memory/promote`, {});
    expect(promoted.status).toBe(200);
    expect(((await promoted.json()) as { facts: FactView[] }).facts).toEqual([]);

    const summarized = await alice.post(`/api/threads/${threadId}/memory/summarize`, {});
    expect(summarized.status).toBe(200);
    const { summary } = (await summarized.json()) as { summary: string };
    expect(summary).toBe(auto.summary);
    expect((await view(victor)).summary).toBe(summary);

    const [keep, drop, other] = facts;
    if (!keep || !drop || !other) throw new Error("facts");
    const accepted = await carol.post(`/api/memory/facts/${keep.id}/accept`, {});
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as { fact: FactView }).fact.status).toBe("accepted");
    expect((await view(alice)).proposed.map((f) => f.id).sort()).toEqual([drop.id, other.id].sort());

    expect((await del(victor, `/api/threads/${threadId}/memory`)).status).toBe(403);
    const cleared = await del(alice, `/api/threads/${threadId}/memory`);
    expect(cleared.status).toBe(200);
    expect(((await cleared.json()) as { removed: number }).removed).toBeGreaterThanOrEqual(0);
    expect((await view(alice)).entries).toEqual([]);

    expect((await del(victor, `/api/threads/${threadId}`)).status).toBe(403);
    expect(existsSync(path.join(s.workspacesDir, threadId))).toBe(true);
    const deleted = await del(alice, `/api/threads/${threadId}`);
    expect(deleted.status).toBe(200);
    const { counts } = (await deleted.json()) as { counts: Record<string, number> };
    expect(counts).toMatchObject({ threads: 1, approvals: 1, proposedFacts: 2, workspaceDirs: 1 });
    expect(counts.checkpoints).toBeGreaterThan(0);

    expect((await alice.fetch(`/api/threads/${threadId}/memory`)).status).toBe(404);
    expect((await alice.fetch(`/api/threads/${threadId}/checkpoints`)).status).toBe(404);
    expect((await alice.fetch(`/threads/${threadId}`)).status).toBe(404);
    expect((await del(alice, `/api/threads/${threadId}`)).status).toBe(404);
    expect(existsSync(path.join(s.workspacesDir, threadId))).toBe(false);
    // The accepted fact stays, naming where it came from; the proposed one went with the thread.
    const remaining = await factsOf(alice);
    expect(remaining.find((f) => f.id === keep.id)?.source).toEqual({ threadId, stepId: keep.source.stepId });
    expect(remaining.map((f) => f.id)).not.toContain(drop.id);
    const db = createDb(s.dbUrl);
    const tomb = await db.tombstone.findFirstOrThrow({ where: { kind: "thread", subjectId: threadId } });
    expect(JSON.parse(tomb.counts)).toEqual(counts);
    await db.$disconnect();
  });
});
