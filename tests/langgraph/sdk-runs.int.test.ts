import { existsSync } from "node:fs";
import path from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client as HttpClient, signIn } from "../http/client";
import { TASK } from "../http/runs";
import { startServer, type TestServer } from "../http/server";

/**
 * Runs through the official @langchain/langgraph-sdk client against the built app
 * (docs/langgraph-api.md#runs): stream modes, an approval as a HumanInterrupt, each
 * HumanResponse, wait, join, cancel, and the refusals that keep every approval factor.
 */

type Chunk = { event: string; data: unknown; id?: string };
type Interrupt = {
  id: string;
  value: { action_request: { action: string; args: Record<string, unknown>; approval: { id: string; token?: string; args_hash: string } }; config: Record<string, boolean>; description: string }[];
};

async function collect(stream: AsyncIterable<Chunk>): Promise<Chunk[]> {
  const out: Chunk[] = [];
  for await (const c of stream) out.push(c);
  return out;
}

describe("LangGraph SDK: runs", () => {
  let s: TestServer;
  let http: HttpClient;
  let sdk: Client;
  let flowId: string;

  /** A signed-in user, an API key they made in Settings, and the SDK client on that key (as a developer would). */
  async function sdkFor(email: string, password: string): Promise<{ http: HttpClient; sdk: Client; key: { id: string; key: string } }> {
    const c = await signIn(s.url, email, password);
    const made = await c.post("/api/keys", { name: "sdk test" });
    expect(made.status).toBe(201);
    const key = (await made.json()) as { id: string; key: string };
    return { http: c, key, sdk: new Client({ apiUrl: `${s.url}/api/langgraph`, apiKey: key.key }) };
  }

  beforeAll(async () => {
    s = await startServer();
    const [a] = s.users;
    if (!a) throw new Error("users");
    flowId = a.flowId;
    ({ http, sdk } = await sdkFor(a.email, a.password));
  }, 120_000);
  afterAll(async () => s?.stop());

  /** The HumanInterrupt a stream ended with. */
  const interruptOf = (chunks: Chunk[]): Interrupt => {
    const hit = chunks.find((c) => c.event === "updates" && (c.data as Record<string, unknown>).__interrupt__);
    const first = (hit?.data as { __interrupt__: Interrupt[] } | undefined)?.__interrupt__[0];
    if (!first) throw new Error(`no interrupt in ${chunks.map((c) => c.event).join(",")}`);
    return first;
  };
  const file = (threadId: string, name: string) => existsSync(path.join(s.workspacesDir, threadId, name));
  const status = async (res: Promise<unknown>) =>
    res.then(
      () => 200,
      (err: { status?: number }) => err.status ?? 0,
    );

  /** A thread made with threads.create, run to its approval through runs.stream (the first run names the flow). */
  async function threadToApproval(): Promise<{ threadId: string; chunks: Chunk[] }> {
    const thread = await sdk.threads.create({ metadata: { purpose: "sdk test" } });
    const chunks = await collect(
      sdk.runs.stream(thread.thread_id, flowId, { input: { messages: [{ role: "user", content: TASK }] }, streamMode: ["values", "updates", "messages-tuple", "custom"] }) as AsyncIterable<Chunk>,
    );
    return { threadId: thread.thread_id, chunks };
  }

  it("lists the assistants the key may run, and a thread made by the SDK becomes a thread of the flow it first runs", async () => {
    const assistants = await sdk.assistants.search({ limit: 10 });
    expect(assistants.map((a) => a.assistant_id)).toContain(flowId);
    expect(assistants.map((a) => a.assistant_id)).not.toContain(s.users[1]?.flowId);
    const { threadId } = await threadToApproval();
    const thread = await sdk.threads.get(threadId);
    expect(thread.status).toBe("interrupted");
    expect(thread.metadata).toMatchObject({ purpose: "sdk test", graph_id: flowId });
    // The HumanInterrupt from the thread's state, as Agent Inbox reads it.
    const state = await sdk.threads.getState(threadId);
    const [interrupt] = state.tasks.flatMap((t) => t.interrupts) as unknown as Interrupt[];
    expect(interrupt?.value[0]?.action_request).toMatchObject({ action: "write_file", args: { path: "summary.md" } });
    expect(interrupt?.value[0]?.action_request.approval.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Another flow on the same thread is refused: a thread runs one flow for its whole life.
    const other = await status(sdk.runs.create(threadId, "some-other-flow", { input: { messages: [{ role: "user", content: "hi" }] } }));
    expect(other).toBe(409);
  });

  it("streams a run to its approval in every mode, ending with the HumanInterrupt", async () => {
    const { threadId, chunks } = await threadToApproval();
    const events = chunks.map((c) => c.event);
    expect(events[0]).toBe("metadata");
    expect(events).toContain("custom");
    expect(events).toContain("values");
    expect(events).toContain("updates");
    const interrupt = chunks.find((c) => c.event === "updates" && (c.data as Record<string, unknown>).__interrupt__);
    const [first] = (interrupt?.data as { __interrupt__: Interrupt[] }).__interrupt__;
    expect(first?.value[0]?.action_request.action).toBe("write_file");
    expect(first?.value[0]?.action_request.approval.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first?.value[0]?.config).toEqual({ allow_accept: true, allow_respond: true, allow_edit: true, allow_ignore: true });
    const runs = await sdk.runs.list(threadId);
    expect(runs[0]?.status).toBe("interrupted");
    expect(existsSync(path.join(s.workspacesDir, threadId, "summary.md"))).toBe(false);
  });

  it("accept: the echoed action_request approves, the tool runs once, and a replay is refused", async () => {
    const { threadId, chunks } = await threadToApproval();
    const request = interruptOf(chunks).value[0]?.action_request;
    const values = (await sdk.runs.wait(threadId, flowId, { command: { resume: [{ type: "accept", args: request }] } })) as Record<string, unknown>;
    expect(values.__interrupt__).toBeUndefined();
    expect(file(threadId, "summary.md")).toBe(true);
    const [last] = await sdk.runs.list(threadId);
    expect(last?.status).toBe("success");
    const final = await sdk.threads.getState(threadId);
    expect(final.tasks.flatMap((t) => t.interrupts)).toEqual([]);
    const messages = (final.values as { messages: { type: string; content: string }[] }).messages;
    expect(messages.at(-1)?.type).toBe("ai");
    expect((await sdk.threads.get(threadId)).status).toBe("idle");
    expect(await status(sdk.runs.wait(threadId, flowId, { command: { resume: { type: "accept", args: request } } }))).toBe(409);
  });

  it("edit: the edited arguments run instead, and policies see them again", async () => {
    const { threadId, chunks } = await threadToApproval();
    const request = interruptOf(chunks).value[0]?.action_request;
    if (!request) throw new Error("no request");
    await sdk.runs.wait(threadId, flowId, { command: { resume: { type: "edit", args: { ...request, args: { ...request.args, path: "edited.md" } } } } });
    expect(file(threadId, "edited.md")).toBe(true);
    expect(file(threadId, "summary.md")).toBe(false);
  });

  it("edit as Agent Inbox sends it ({ action, args }, no token): nothing runs; the edited call waits as a new approval, and Accept runs it", async () => {
    const { threadId, chunks } = await threadToApproval();
    const request = interruptOf(chunks).value[0]?.action_request;
    if (!request) throw new Error("no request");
    const inboxEdit = { action: request.action, args: { ...request.args, path: "inbox-edit.md" } };
    // Needing no token does not mean anyone may: a viewer's edit is refused, and nothing changes.
    const [, , , v] = s.users;
    if (!v) throw new Error("victor");
    const viewer = await sdkFor(v.email, v.password);
    expect(await status(viewer.sdk.runs.wait(threadId, flowId, { command: { resume: [{ type: "edit", args: inboxEdit }] } }))).toBe(403);
    // As Agent Inbox streams a resume: the `events` mode, whose on_chain_start names the current node.
    const resumed = await collect(sdk.runs.stream(threadId, flowId, { command: { resume: [{ type: "edit", args: inboxEdit }] }, streamMode: ["updates", "events"] }) as AsyncIterable<Chunk>);
    const started = resumed.flatMap((c) =>
      c.event === "events" && (c.data as { event: string }).event === "on_chain_start" ? [(c.data as { metadata: { langgraph_node: string } }).metadata.langgraph_node] : [],
    );
    expect(started).toEqual(expect.arrayContaining(["approval_handler", "risk_gate", "await_approval"]));
    expect(resumed.some((c) => c.event === "events" && (c.data as { event: string; name: string }).event === "on_chain_end" && (c.data as { name: string }).name === "risk_gate")).toBe(true);
    expect(file(threadId, "inbox-edit.md")).toBe(false);
    expect(file(threadId, "summary.md")).toBe(false);
    // The thread waits again, on an approval of the edited call, with a token of its own.
    const next = interruptOf(resumed).value[0]?.action_request;
    expect(next?.args).toEqual(inboxEdit.args);
    expect(next?.approval.id).not.toBe(request.approval.id);
    expect(next?.approval.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await sdk.threads.get(threadId)).status).toBe("interrupted");
    const closed = await http.fetch(`/api/approvals/${request.approval.id}`);
    expect(await closed.json()).toMatchObject({ status: "rejected", decision: "revise" });
    // The first approval's token is spent: it cannot run the original call.
    expect(await status(sdk.runs.wait(threadId, flowId, { command: { resume: { type: "accept", args: request } } }))).toBe(409);
    expect(file(threadId, "summary.md")).toBe(false);
    await sdk.runs.wait(threadId, flowId, { command: { resume: [{ type: "accept", args: next }] } });
    expect(file(threadId, "inbox-edit.md")).toBe(true);
    expect(file(threadId, "summary.md")).toBe(false);
    const [last] = await sdk.runs.list(threadId);
    expect(last?.status).toBe("success");
  });

  it("Mark as resolved (Agent Inbox: updateState with values null as __end__) dismisses the waiting approval; other state updates are refused", async () => {
    const { threadId, chunks } = await threadToApproval();
    const request = interruptOf(chunks).value[0]?.action_request;
    if (!request) throw new Error("no request");
    expect(await status(sdk.threads.updateState(threadId, { values: { final_answer: "planted" } }))).toBe(405);
    const [, , , v] = s.users;
    if (!v) throw new Error("victor");
    const viewer = await sdkFor(v.email, v.password);
    expect(await status(viewer.sdk.threads.updateState(threadId, { values: null, asNode: "__end__" }))).toBe(403);
    const updated = await sdk.threads.updateState(threadId, { values: null, asNode: "__end__" });
    expect(updated.configurable).toMatchObject({ thread_id: threadId, checkpoint_id: expect.any(String) });
    expect(file(threadId, "summary.md")).toBe(false);
    expect((await sdk.threads.get(threadId)).status).toBe("idle");
    const [run] = (await sdk.runs.list(threadId)) as unknown as { phylactery_status: string }[];
    expect(run?.phylactery_status).toBe("cancelled");
    expect(await (await http.fetch(`/api/approvals/${request.approval.id}`)).json()).toMatchObject({ status: "rejected", decision: "ignore" });
    expect(await status(sdk.threads.updateState(threadId, { values: null, asNode: "__end__" }))).toBe(409);
  });

  it("response and ignore: the tool never runs; a response ends the run incomplete (never success); ignore cancels it; no run still reads as waiting", async () => {
    type Listed = { status: string; phylactery_status: string };
    const a = await threadToApproval();
    await sdk.runs.wait(a.threadId, flowId, { command: { resume: [{ type: "response", args: "Do not write files today." }] } });
    expect(file(a.threadId, "summary.md")).toBe(false);
    // Both the run that waited and the one the response started (docs/runs.md "Respond", "Runs that waited").
    const answered = (await sdk.runs.list(a.threadId)) as unknown as Listed[];
    expect(answered.map((r) => [r.status, r.phylactery_status])).toEqual([
      ["error", "incomplete"],
      ["error", "incomplete"],
    ]);
    const b = await threadToApproval();
    await sdk.runs.wait(b.threadId, flowId, { command: { resume: [{ type: "ignore", args: null }] } });
    expect(file(b.threadId, "summary.md")).toBe(false);
    const ignored = (await sdk.runs.list(b.threadId)) as unknown as Listed[];
    expect(ignored.map((r) => r.phylactery_status)).toEqual(["cancelled", "cancelled"]);
  });

  it("refuses an accept without the token, and a viewer's decision even with the owner's token", async () => {
    const { threadId, chunks } = await threadToApproval();
    const request = interruptOf(chunks).value[0]?.action_request;
    const bare = await status(sdk.runs.wait(threadId, flowId, { command: { resume: { type: "accept", args: null } } }));
    expect(bare).toBe(422);
    const [, , , v] = s.users;
    if (!v) throw new Error("victor");
    const victor = await sdkFor(v.email, v.password);
    expect(await status(victor.sdk.runs.wait(threadId, flowId, { command: { resume: { type: "accept", args: request } } }))).toBe(403);
    expect(file(threadId, "summary.md")).toBe(false);
  });

  it("refuses a client with no key, with a revoked key, and a key on another tenant's thread", async () => {
    const { threadId } = await threadToApproval();
    const anonymous = new Client({ apiUrl: `${s.url}/api/langgraph`, apiKey: null as unknown as string });
    expect(await status(anonymous.runs.list(threadId))).toBe(401);
    const [a, b] = s.users;
    if (!a || !b) throw new Error("users");
    const spare = await sdkFor(a.email, a.password);
    expect(await status(spare.sdk.runs.list(threadId))).toBe(200);
    expect((await spare.http.fetch(`/api/keys/${spare.key.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await status(spare.sdk.runs.list(threadId))).toBe(401);
    const bob = await sdkFor(b.email, b.password);
    expect(await status(bob.sdk.runs.list(threadId))).toBe(404);
  });

  it("cancels a queued or running run, and refuses a second run while one holds the thread", async () => {
    const created = await http.post("/api/threads", { flowId, task: TASK });
    const { threadId } = (await created.json()) as { threadId: string };
    const run = await sdk.runs.create(threadId, flowId, { input: { messages: [{ role: "user", content: TASK }] } });
    expect(["pending", "running"]).toContain(run.status);
    expect(await status(sdk.runs.create(threadId, flowId, { input: { messages: [{ role: "user", content: TASK }] } }))).toBe(409);
    const cancelled = await status(sdk.runs.cancel(threadId, run.run_id, true));
    // The run may have reached its approval before the cancel: then there is nothing to cancel.
    const after = (await sdk.runs.get(threadId, run.run_id)) as unknown as { phylactery_status: string };
    if (cancelled === 200) expect(after.phylactery_status).toBe("cancelled");
    else expect([cancelled, after.phylactery_status]).toEqual([409, "awaiting_approval"]);
  });
});
