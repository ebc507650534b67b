import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createDb, type Db } from "../../lib/db/client";
import { createFlow } from "../../lib/db/flows";
import { type FlowDocument, FlowNetwork } from "../../lib/flow/schema";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import type { Client } from "../http/client";

/**
 * What the crash tests run (docs/durability.md "Side effects"): a flow whose one step POSTs
 * to a local counting server through `http_request`, after a person approves it, so that a
 * doubled side effect shows as two requests at the server.
 */

/** A local HTTP server counting POSTs per `?tag=`; it answers after `delayMs` (a slow side effect). */
export interface CountingServer {
  port: number;
  /** Requests received per tag (counted on arrival, before the answer). */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/**
 * Starts a {@link CountingServer} on 127.0.0.1.
 * @param delayMs how long each answer waits, ms: a kill in this window leaves a call whose
 *   outcome the run cannot know.
 */
export async function countingServer(delayMs: number): Promise<CountingServer> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const tag = new URL(req.url ?? "/", "http://x").searchParams.get("tag") ?? "";
    hits.set(tag, (hits.get(tag) ?? 0) + 1);
    req.resume();
    setTimeout(() => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(`counted ${tag}`);
    }, delayMs);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * The side-effect flow: the Workspace assistant with `http_request` added, AUTH_REQUIRED
 * (a person approves every call), POST allowed to `127.0.0.1:<port>` only.
 */
export function postingFlow(port: number): FlowDocument {
  const doc = structuredClone(workspaceAssistant);
  doc.settings.name = "Counting poster";
  doc.settings.network = FlowNetwork.parse({ allowHosts: [`127.0.0.1:${port}`], methods: ["GET", "POST"], timeoutMs: 10_000 });
  doc.nodes.push({ id: "t-http", type: "tool", position: { x: 720, y: 440 }, data: { tool: "http_request" } });
  doc.edges.push({ id: "e-http", source: "assistant", target: "t-http" });
  const policy = doc.nodes.find((n) => n.type === "policy");
  if (policy?.type === "policy") policy.data.rules.push({ tool: "http_request", decision: "AUTH_REQUIRED", risk: "medium", permission: "any", match: [] });
  return doc;
}

/** Creates the {@link postingFlow} in alice's workspace (the one carol approves in). */
export async function createPostingFlow(dbUrl: string, ownerId: string, port: number): Promise<string> {
  const db = createDb(dbUrl);
  try {
    return (await createFlow(db, ownerId, postingFlow(port))).id;
  } finally {
    await db.$disconnect();
  }
}

/** The task whose one step POSTs `?tag=<tag>` to the counting server (the offline model's "use <tool> with {…}"). */
export function postTask(port: number, tag: string): string {
  return `use http_request with ${JSON.stringify({ url: `http://127.0.0.1:${port}/hit?tag=${tag}`, method: "POST", body: `side effect ${tag}` })}`;
}

/** Terminal statuses a run may end in for these tests: completed, or honestly asking a person. */
const SETTLED = new Set(["completed", "awaiting_input", "failed", "incomplete", "cancelled", "interrupted"]);

/** How one driven run ended. */
export interface DrivenRun {
  tag: string;
  threadId: string;
  /** The thread's status at the end: completed, or awaiting_input when it asks a person. */
  status: string;
  /** True when it waits on an outcome_unknown choice (a call died with its worker). */
  askedPerson: boolean;
  /** True when it did not settle before the deadline. */
  stuck: boolean;
  /** The last run's error, when it failed. */
  error: string | null;
}

/** Polls until `check` returns a value, or `ms` pass (then null). */
export async function poll<T>(check: () => Promise<T | null | undefined>, ms: number, everyMs = 100): Promise<T | null> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const v = await check().catch(() => null);
    if (v !== null && v !== undefined) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return null;
}

/** The thread's status once it is not running and its lease is free. */
async function settledStatus(db: Db, threadId: string): Promise<string | null> {
  const t = await db.thread.findUnique({ where: { id: threadId }, select: { status: true, leaseRunId: true } });
  return t && t.leaseRunId === null && t.status !== "running" ? t.status : null;
}

/**
 * Sends a request, again while the web instance is down (a connection error: it was killed
 * and is restarting), unless `done` says the request took effect before its answer was lost.
 */
async function send(req: () => Promise<Response>, done: () => Promise<boolean>, ms = 60_000): Promise<Response | null> {
  const deadline = Date.now() + ms;
  while (true) {
    try {
      return await req();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 250));
      if (await done().catch(() => false)) return null;
    }
  }
}

/**
 * Drives one run of {@link postTask} through the web instances `webs`: the message to the
 * first, then (when it pauses for approval) the approval to the last, with the card's token
 * read from its inbox (GET /api/approvals), then waits for the end. The streams are not read
 * (a browser going away never stops a run); the database says how it ended. A request that
 * meets a killed web instance is sent again once it is back, unless it already took effect.
 * @param webs clients signed in on web instances, as a person who may decide.
 * @param settleMs how long each phase may take to settle, ms.
 */
export async function driveRun(db: Db, webs: Client[], flowId: string, port: number, tag: string, settleMs: number): Promise<DrivenRun> {
  const first = webs[0];
  const last = webs.at(-1);
  if (!first || !last) throw new Error("no web client");
  const task = postTask(port, tag);
  let threadId = "";
  while (!threadId) {
    const created = await send(
      () => first.post("/api/threads", { flowId, task }),
      async () => false,
    );
    if (created?.status === 201) threadId = ((await created.json()) as { threadId: string }).threadId;
    else throw new Error(`create thread: HTTP ${created?.status} ${await created?.text()}`);
  }
  const posted = await send(
    () => first.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: task } }),
    async () => (await db.run.count({ where: { threadId } })) > 0,
  );
  if (posted && posted.status !== 200) throw new Error(`message: HTTP ${posted.status} ${await posted.text()}`);
  await posted?.body?.cancel().catch(() => undefined);
  const paused = await poll(() => settledStatus(db, threadId), settleMs);
  if (paused !== "awaiting_approval") return finish(db, tag, threadId, paused);
  const card = await poll(async () => {
    const res = await last.fetch("/api/approvals?status=pending");
    if (res.status !== 200) return null;
    const { items } = (await res.json()) as { items: { approvalId: string; threadId: string; token: string | null; argsHash: string }[] };
    return items.find((i) => i.threadId === threadId && i.token) ?? null;
  }, settleMs);
  if (!card?.token) throw new Error(`no approval card with a token for thread ${threadId}`);
  const { approvalId, token, argsHash } = card;
  const decided = await send(
    () => last.post(`/api/threads/${threadId}/stream`, { input: { kind: "decision", decision: "approve", approvalId, token, argsHash } }),
    async () => (await db.approval.findUniqueOrThrow({ where: { id: approvalId } })).status !== "pending",
  );
  if (decided && decided.status !== 200) throw new Error(`decision: HTTP ${decided.status} ${await decided.text()}`);
  await decided?.body?.cancel().catch(() => undefined);
  return finish(db, tag, threadId, await poll(() => settledStatus(db, threadId), settleMs));
}

async function finish(db: Db, tag: string, threadId: string, status: string | null): Promise<DrivenRun> {
  const askedPerson = status === "awaiting_input" && (await db.toolExecution.count({ where: { threadId, status: "started" } })) > 0;
  const last = await db.run.findFirst({ where: { threadId }, orderBy: { startedAt: "desc" }, select: { error: true } });
  return { tag, threadId, status: status ?? "running", askedPerson, stuck: status === null || !SETTLED.has(status), error: last?.error ?? null };
}

/** What the invariants found in the database after a crash test. */
export interface Invariants {
  /** Tags the counting server saw more than once. */
  doubledSideEffects: string[];
  /** Calls with more than one completed execution or more than one tool_executed audit entry. */
  doubledSteps: string[];
  /** Runs still queued or running, jobs still queued or claimed, threads still leased. */
  leftovers: string[];
}

/** Checks the invariants of docs/durability.md over every thread of the database. */
export async function checkInvariants(db: Db, hits: Map<string, number>): Promise<Invariants> {
  const doubledSideEffects = [...hits].filter(([, n]) => n > 1).map(([tag, n]) => `${tag} x${n}`);
  // Each thread makes one http_request call: a second execution (a new call id, or the same
  // call's next attempt, which only a person's retry may start) is a doubled step.
  const executed = await db.auditEntry.groupBy({ by: ["threadId"], where: { action: "tool_executed", toolName: "http_request" }, _count: { _all: true } });
  const doubledSteps = executed.filter((e) => e._count._all > 1).map((e) => `thread ${e.threadId}: ${e._count._all} executions`);
  const calls = await db.toolExecution.groupBy({ by: ["threadId"], where: { toolName: "http_request" }, _count: { _all: true }, _max: { attempt: true } });
  doubledSteps.push(...calls.filter((c) => c._count._all > 1 || (c._max.attempt ?? 1) > 1).map((c) => `thread ${c.threadId}: ${c._count._all} calls, attempt ${c._max.attempt}`));
  const runs = await db.run.findMany({ where: { status: { in: ["queued", "running"] } }, select: { id: true, status: true, threadId: true } });
  const jobs = await db.runJob.findMany({ where: { status: { in: ["queued", "claimed"] } }, select: { id: true, status: true, threadId: true } });
  const leased = await db.thread.findMany({ where: { leaseRunId: { not: null } }, select: { id: true, leaseHolder: true } });
  const leftovers = [
    ...runs.map((r) => `run ${r.id} ${r.status} (thread ${r.threadId})`),
    ...jobs.map((j) => `job ${j.id} ${j.status} (thread ${j.threadId})`),
    ...leased.map((t) => `thread ${t.id} leased by ${t.leaseHolder ?? "nobody (queued)"}`),
  ];
  return { doubledSideEffects, doubledSteps, leftovers };
}
