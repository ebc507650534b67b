import { Client as LangGraphClient } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, signIn } from "./client";
import { type PendingApproval, startRun } from "./runs";
import { startServer, type TestServer } from "./server";

/**
 * The LangGraph Platform API (docs/langgraph-api.md) driven by the official client,
 * @langchain/langgraph-sdk, unchanged, against the built app: assistants are the caller's
 * flows, threads are theirs and their workspaces', and a run waiting on an approval shows as
 * an interrupted thread whose HumanInterrupt carries the token only to those who may decide.
 */

/** The official client, signed in through the test client's session cookie. */
function sdk(base: string, c: Client): LangGraphClient {
  const apiUrl = `${base}/api/langgraph`;
  const fetch = (url: string | URL | Request, init?: RequestInit) => c.fetch(String(url).slice(base.length), init);
  return new LangGraphClient({ apiUrl, callerOptions: { fetch: fetch as typeof globalThis.fetch, maxRetries: 0 } });
}

/** The HTTP status an SDK call failed with. */
async function statusOf(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (err) {
    return (err as { status?: number }).status ?? -1;
  }
}

type Approvalish = {
  action_request: { action: string; args: Record<string, unknown>; approval: { id: string; args_hash: string; expires_at: string; token?: string } };
  config: Record<string, boolean>;
};

describe("LangGraph Platform API with the official client", () => {
  let s: TestServer;
  let alice: LangGraphClient;
  let bob: LangGraphClient;
  let carol: LangGraphClient;
  let victor: LangGraphClient;
  let aliceHttp: Client;
  let aliceFlow: string;
  let bobFlow: string;

  beforeAll(async () => {
    s = await startServer();
    const [a, b, c, v] = s.users;
    if (!a || !b || !c || !v) throw new Error("users");
    aliceFlow = a.flowId;
    bobFlow = b.flowId;
    const http = await Promise.all([a, b, c, v].map((u) => signIn(s.url, u.email, u.password)));
    aliceHttp = http[0] as Client;
    [alice, bob, carol, victor] = http.map((h) => sdk(s.url, h)) as [LangGraphClient, LangGraphClient, LangGraphClient, LangGraphClient];
  }, 120_000);
  afterAll(async () => s?.stop());

  it("GET /info answers without a session: versions and flags, no secrets", async () => {
    const res = await fetch(`${s.url}/api/langgraph/info`);
    expect(res.status).toBe(200);
    const info = (await res.json()) as Record<string, unknown>;
    expect(info).toMatchObject({ flags: { assistants: true, crons: false, langsmith: false }, host: { kind: "phylactery", tenant_id: null } });
    expect(typeof info.version).toBe("string");
  });

  it("lists the caller's flows as assistants, never another workspace's", async () => {
    const mine = await alice.assistants.search({ limit: 100 });
    expect(mine.map((x) => x.assistant_id)).toContain(aliceFlow);
    expect(mine.map((x) => x.assistant_id)).not.toContain(bobFlow);
    const one = mine.find((x) => x.assistant_id === aliceFlow);
    expect(one).toMatchObject({ graph_id: aliceFlow, version: 1, config: {}, context: {} });
    expect(one?.name.length).toBeGreaterThan(0);
    expect(await alice.assistants.count()).toBe(mine.length);
    expect((await carol.assistants.search({ graphId: aliceFlow })).map((x) => x.assistant_id)).toEqual([aliceFlow]);
    expect(await alice.assistants.search({ metadata: { workspace_id: "not-a-workspace" } })).toEqual([]);
  });

  it("reads one assistant, its graph drawing, its schemas, subgraphs and versions", async () => {
    const a = await alice.assistants.get(aliceFlow);
    expect(a.assistant_id).toBe(aliceFlow);
    expect(a.metadata).toMatchObject({ workspace_id: expect.any(String) });
    const graph = (await alice.assistants.getGraph(aliceFlow)) as unknown as { nodes: { id: string }[]; edges: { source: string; target: string }[] };
    const ids = graph.nodes.map((n) => n.id);
    for (const node of ["__start__", "router", "planner", "supervisor", "await_approval", "finalizer"]) expect(ids).toContain(node);
    expect(graph.edges).toContainEqual(expect.objectContaining({ source: "__start__", target: "router" }));
    const schemas = await alice.assistants.getSchemas(aliceFlow);
    expect(schemas.graph_id).toBe(aliceFlow);
    expect(schemas.input_schema).toMatchObject({ type: "object", properties: { messages: expect.any(Object) } });
    expect(schemas.state_schema).toMatchObject({ type: "object", properties: { plan: expect.any(Object), final_answer: expect.any(Object) } });
    expect(await alice.assistants.getSubgraphs(aliceFlow)).toEqual({});
    const versions = await alice.assistants.getVersions(aliceFlow);
    expect(versions.map((v) => v.version)).toEqual([1]);
  });

  it("another workspace's flow is not an assistant for bob (404 with detail); writes are refused with what to do", async () => {
    const res = await fetch(`${s.url}/api/langgraph/assistants/${aliceFlow}`, { headers: {} }).catch(() => null);
    expect(res?.status).toBe(401);
    expect(await statusOf(bob.assistants.get(aliceFlow))).toBe(404);
    const created = await aliceHttp.post("/api/langgraph/assistants", { graph_id: aliceFlow });
    expect(created.status).toBe(405);
    expect(((await created.json()) as { detail: string }).detail).toMatch(/^Assistants are flows: draw and publish them in the editor/);
    expect(await statusOf(alice.assistants.update(aliceFlow, { name: "x" }))).toBe(405);
    expect(await statusOf(alice.assistants.delete(aliceFlow))).toBe(405);
    expect(await statusOf(bob.assistants.delete(aliceFlow))).toBe(404);
  });

  it("creates, reads, updates, searches and deletes an API thread", async () => {
    const t = await alice.threads.create({ metadata: { team: "ops" }, graphId: aliceFlow });
    expect(t.thread_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(t).toMatchObject({ status: "idle", values: {}, interrupts: {}, metadata: { team: "ops", graph_id: aliceFlow } });
    expect((await alice.threads.get(t.thread_id)).thread_id).toBe(t.thread_id);
    const updated = await alice.threads.update(t.thread_id, { metadata: { stage: "review" } });
    expect(updated.metadata).toMatchObject({ team: "ops", stage: "review" });
    const found = await alice.threads.search({ metadata: { team: "ops" } });
    expect(found.map((x) => x.thread_id)).toEqual([t.thread_id]);
    expect(await alice.threads.count({ metadata: { stage: "review" } })).toBe(1);
    const state = await alice.threads.getState(t.thread_id);
    expect(state).toMatchObject({ values: {}, next: [], tasks: [], checkpoint: null });
    expect(await alice.threads.getHistory(t.thread_id)).toEqual([]);
    // Someone else's API thread does not exist for them.
    expect(await statusOf(bob.threads.get(t.thread_id))).toBe(404);
    expect(await statusOf(carol.threads.get(t.thread_id))).toBe(404);
    expect((await bob.threads.search({ metadata: { team: "ops" } })).length).toBe(0);
    // A taken id: 409, or the caller's own thread back with do_nothing.
    expect(await statusOf(alice.threads.create({ threadId: t.thread_id }))).toBe(409);
    expect((await alice.threads.create({ threadId: t.thread_id, ifExists: "do_nothing" })).thread_id).toBe(t.thread_id);
    expect(await statusOf(bob.threads.create({ threadId: t.thread_id, ifExists: "do_nothing" }))).toBe(409);
    expect(await statusOf(alice.threads.create({ graphId: bobFlow }))).toBe(404);
    await alice.threads.delete(t.thread_id);
    expect(await statusOf(alice.threads.get(t.thread_id))).toBe(404);
  });

  describe("a thread the UI ran up to an approval", () => {
    let threadId: string;
    let approval: PendingApproval;
    beforeAll(async () => {
      ({ threadId, approval } = await startRun(aliceHttp, aliceFlow));
    }, 120_000);

    const approvalOf = (value: unknown) => (value as Approvalish[])[0];

    it("is interrupted, bound to its flow, with the HumanInterrupt and the token for alice (owner)", async () => {
      const t = await alice.threads.get(threadId);
      expect(t.status).toBe("interrupted");
      expect(t.metadata).toMatchObject({ graph_id: aliceFlow, assistant_id: aliceFlow });
      const groups = Object.values(t.interrupts);
      expect(groups).toHaveLength(1);
      const first = approvalOf(groups[0]?.[0]?.value);
      expect(first?.action_request).toMatchObject({ action: "write_file", args: { path: "summary.md" }, approval: { id: approval.approvalId, args_hash: approval.argsHash, token: approval.token } });
      expect(first?.config).toEqual({ allow_accept: true, allow_respond: true, allow_edit: true, allow_ignore: true });
      expect(Date.parse(first?.action_request.approval.expires_at ?? "")).toBeGreaterThan(Date.now());
      expect((t.values as { messages: { type: string }[] }).messages[0]?.type).toBe("human");
    });

    it("shows the interrupt in the state's tasks and interrupts", async () => {
      const st = (await alice.threads.getState(threadId)) as unknown as {
        tasks: { name: string; interrupts: { id: string; value: unknown }[] }[];
        interrupts: { id: string }[];
        next: string[];
        checkpoint: { checkpoint_id: string };
      };
      const waiting = st.tasks.filter((x) => x.interrupts.length > 0);
      expect(waiting.map((x) => x.name)).toEqual(["await_approval"]);
      expect(approvalOf(waiting[0]?.interrupts[0]?.value)?.action_request.approval.token).toBe(approval.token);
      expect(st.interrupts.map((i) => i.id)).toEqual([waiting[0]?.interrupts[0]?.id]);
      expect(st.next).toContain("await_approval");
      const past = await alice.threads.getState(threadId, st.checkpoint.checkpoint_id);
      expect(past.checkpoint.checkpoint_id).toBe(st.checkpoint.checkpoint_id);
      const history = await alice.threads.getHistory(threadId, { limit: 3 });
      expect(history).toHaveLength(3);
      expect(history[0]?.checkpoint.checkpoint_id).toBe(st.checkpoint.checkpoint_id);
      expect(history[1]?.checkpoint.checkpoint_id).toBe(history[0]?.parent_checkpoint?.checkpoint_id);
      const older = await alice.threads.getHistory(threadId, { limit: 1, before: { configurable: { checkpoint_id: history[0]?.checkpoint.checkpoint_id } } });
      expect(older.map((h) => h.checkpoint.checkpoint_id)).toEqual([history[1]?.checkpoint.checkpoint_id]);
      const inputs = await alice.threads.getHistory(threadId, { limit: 100, metadata: { source: "input" } });
      expect(inputs.length).toBeGreaterThan(0);
      expect(inputs.every((h) => h.metadata?.source === "input")).toBe(true);
      expect(await statusOf(alice.threads.getState(threadId, "1f000000-0000-6000-8000-000000000000"))).toBe(404);
    });

    it("gives the token to carol (approver) but never to victor (viewer)", async () => {
      const forCarol = await carol.threads.get(threadId);
      expect(approvalOf(Object.values(forCarol.interrupts)[0]?.[0]?.value)?.action_request.approval.token).toBe(approval.token);
      const forVictor = await victor.threads.get(threadId);
      const seen = approvalOf(Object.values(forVictor.interrupts)[0]?.[0]?.value);
      expect(seen?.action_request.approval).toEqual({ id: approval.approvalId, args_hash: approval.argsHash, expires_at: expect.any(String) });
      const texts = [forVictor, await victor.threads.getState(threadId), await victor.threads.getHistory(threadId, { limit: 50 }), await victor.threads.search({ status: "interrupted" })].map((x) =>
        JSON.stringify(x),
      );
      for (const text of texts) expect(text).not.toContain(approval.token);
    });

    it("is found by Agent Inbox's search for interrupted threads, by its members only", async () => {
      const inbox = await alice.threads.search({ status: "interrupted", limit: 10, offset: 0 });
      expect(inbox.map((x) => x.thread_id)).toContain(threadId);
      expect((await alice.threads.search({ status: "idle" })).map((x) => x.thread_id)).not.toContain(threadId);
      expect((await alice.threads.search({ metadata: { graph_id: aliceFlow } })).map((x) => x.thread_id)).toContain(threadId);
      expect((await bob.threads.search({ status: "interrupted" })).map((x) => x.thread_id)).not.toContain(threadId);
      expect(await bob.threads.count({ status: "interrupted" })).toBe(0);
    });

    it("answers another workspace's thread with 404 and a detail", async () => {
      const res = await (await signIn(s.url, "bob@test.dev", "pw-bob@test.dev")).fetch(`/api/langgraph/threads/${threadId}`);
      expect(res.status).toBe(404);
      const body = (await res.json()) as { detail: string };
      expect(body.detail).toBe(`No thread ${threadId}.`);
      expect(await statusOf(bob.threads.getState(threadId))).toBe(404);
      expect(await statusOf(bob.threads.getHistory(threadId))).toBe(404);
    });

    it("refuses state edits and copies with what to do instead, and deletion to a viewer", async () => {
      const edit = await aliceHttp.post(`/api/langgraph/threads/${threadId}/state`, { values: {} });
      expect(edit.status).toBe(405);
      expect(((await edit.json()) as { detail: string }).detail).toMatch(/fork the thread at a checkpoint in the run view/);
      expect(await statusOf(alice.threads.copy(threadId))).toBe(405);
      expect(await statusOf(victor.threads.delete(threadId))).toBe(403);
      expect(await statusOf(victor.threads.update(threadId, { metadata: { x: 1 } }))).toBe(403);
      expect((await carol.threads.update(threadId, { metadata: { reviewed: true } })).metadata).toMatchObject({ reviewed: true, graph_id: aliceFlow });
    });

    it("is erased by alice with DELETE", async () => {
      await alice.threads.delete(threadId);
      expect(await statusOf(alice.threads.get(threadId))).toBe(404);
      expect((await aliceHttp.fetch(`/api/threads/${threadId}/checkpoints`)).status).toBe(404);
    });
  });

  it("answers endpoints it does not offer with 404 naming them, without shadowing real ones", async () => {
    const res = await aliceHttp.post("/api/langgraph/crons/search", {});
    expect(res.status).toBe(404);
    expect(((await res.json()) as { detail: string }).detail).toBe("Phylactery does not support POST /crons/search of the LangGraph Platform API; see docs/langgraph-api.md#unsupported");
    const store = await aliceHttp.fetch("/api/langgraph/store/items?key=a");
    expect(store.status).toBe(404);
    expect((await aliceHttp.post("/api/langgraph/threads/search", {})).status).toBe(200);
    expect((await fetch(`${s.url}/api/langgraph/crons/search`, { method: "POST" })).status).toBe(401);
  });
});
