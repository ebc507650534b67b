import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { closeChallenge, createChallenge } from "../approvals/service";
import { createFlow } from "../db/flows";
import { createTestDb, type TestDb } from "../db/test-db";
import { createThread } from "../db/threads";
import { publish } from "../events/bus";
import { openHostsForTests } from "../net/operator-open-hosts";
import { canonicalArgs } from "../policy/canonical";
import { listDeliveries, redeliver } from "./deliveries";
import { docsVerifySnippet } from "./docs-snippet";
import { addWebhook, updateWebhook } from "./endpoints";
import { installWebhookRecorder, recordWebhookEvent } from "./record";
import { startWebhookSender, type WebhookSender } from "./sender";

/**
 * Webhooks end to end on a real SQLite file and a real receiver on 127.0.0.1 (docs/webhooks.md):
 * an approval made by the approvals service becomes a delivery, the sender signs and POSTs
 * it through the guarded client (the operator opened the receiver's port), the receiver
 * checks it with the documented snippet, a 500 is retried, and the log says so.
 */

interface Hit {
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean;
}

interface Receiver {
  server: Server;
  port: number;
  hits: Hit[];
  /** Statuses to answer, in order; 200 once they run out. */
  answers: number[];
  /** The secret to verify with (set once the webhook is added). */
  secret: string;
}

const verifySnippet = docsVerifySnippet();

async function receiver(delayMs = 0): Promise<Receiver> {
  const r: Receiver = { server: null as unknown as Server, port: 0, hits: [], answers: [], secret: "" };
  r.server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      body += c;
    });
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      r.hits.push({ headers: req.headers, body, verified: verifySnippet(r.secret, headers, body) });
      setTimeout(() => res.writeHead(r.answers.shift() ?? 200).end("receiver body that must not be stored"), delayMs);
    });
  });
  await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
  r.port = (r.server.address() as AddressInfo).port;
  return r;
}

async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const secret = "test-secret-0123456789-abcdefghijklmnop";
const args = { path: "summary.md", content: "the content stays private" };

describe("webhooks to a real receiver", () => {
  let t: TestDb;
  let rcv: Receiver;
  let hidden: Receiver;
  let closeOpened: () => void;
  let uninstall: () => void;
  let senders: WebhookSender[];
  let ids: { owner: string; workspaceId: string; threadId: string };

  beforeAll(async () => {
    process.env.PROVIDER_KEYS_SECRET = "webhook-test-provider-keys-secret-0123456789";
    rcv = await receiver();
    hidden = await receiver();
    closeOpened = openHostsForTests([`127.0.0.1:${rcv.port}`]);
  });
  afterAll(() => {
    closeOpened();
    rcv.server.close();
    hidden.server.close();
  });

  beforeEach(async () => {
    t = await createTestDb();
    rcv.hits = [];
    rcv.answers = [];
    hidden.hits = [];
    senders = [];
    const owner = await t.db.user.create({ data: { email: "owner@t.dev" } });
    const flow = await createFlow(t.db, owner.id, workspaceAssistant);
    const thread = await createThread(t.db, owner.id, flow.id, "Summarize notes.md into summary.md");
    ids = { owner: owner.id, workspaceId: flow.workspaceId, threadId: thread.id };
    uninstall = installWebhookRecorder(t.db);
  });
  afterEach(async () => {
    uninstall();
    await Promise.all(senders.map((s) => s.stop()));
    await t.cleanup();
  });

  const sender = (id: string, extra: { concurrency?: number } = {}) => {
    const s = startWebhookSender(t.db, { id, pollMs: 50, retryBaseMs: 50, ...extra });
    senders.push(s);
    return s;
  };
  const challenge = () => {
    const c = canonicalArgs(args);
    return createChallenge(
      { db: t.db, secret, ttlMs: 60_000 },
      { threadId: ids.threadId, userId: ids.owner, toolName: "write_file", toolCallId: "call-1", canonicalArgs: c.canonical, argsHash: c.hash },
    );
  };
  const deliveriesOf = (webhookId: string) => listDeliveries(t.db, ids.owner, ids.workspaceId, webhookId);

  it("an approval is delivered signed; a 500 is retried; the log shows 2 attempts; a redelivery is signed anew", async () => {
    const { webhook, secret: whsec } = await addWebhook(t.db, ids.owner, ids.workspaceId, { url: `http://127.0.0.1:${rcv.port}/hook`, events: ["approval.required", "approval.decided"] });
    rcv.secret = whsec;
    rcv.answers = [500];
    sender("s1");
    const c = await challenge();

    const [delivery] = await until(
      "the delivery to succeed",
      () => deliveriesOf(webhook.id),
      (d) => d[0]?.status === "succeeded",
    );
    expect(delivery).toMatchObject({ event: "approval.required", status: "succeeded", attempts: 2, lastStatus: 200, lastError: null, redeliveryOf: null });
    expect(rcv.hits).toHaveLength(2);
    expect(rcv.hits.map((h) => h.verified)).toEqual([true, true]);
    // Both attempts are the same delivery: one webhook-id, one body.
    expect(rcv.hits.map((h) => h.headers["webhook-id"])).toEqual([delivery?.id, delivery?.id]);
    expect(rcv.hits[1]?.body).toBe(rcv.hits[0]?.body);
    const body = JSON.parse(rcv.hits[0]?.body ?? "{}");
    expect(body).toMatchObject({
      type: "approval.required",
      workspace_id: ids.workspaceId,
      data: { thread_id: ids.threadId, approval_id: c.id, tool: "write_file", args_hash: canonicalArgs(args).hash, status: "pending", path: `/approvals/${c.id}` },
    });
    expect(body.id).toMatch(/^evt_/);
    expect(delivery?.payload).toEqual(body);
    // No arguments, no approval token, no receiver body in what is sent or stored.
    const stored = JSON.stringify(await t.db.webhookDelivery.findMany());
    for (const text of [rcv.hits[0]?.body ?? "", stored]) {
      expect(text).not.toContain("the content stays private");
      expect(text).not.toContain(c.token);
      expect(text).not.toContain("receiver body");
    }

    const again = await redeliver(t.db, ids.owner, ids.workspaceId, webhook.id, delivery?.id ?? "");
    expect(again).toMatchObject({ redeliveryOf: delivery?.id, status: "pending", attempts: 0 });
    const log = await until(
      "the redelivery to succeed",
      () => deliveriesOf(webhook.id),
      (d) => d.length === 2 && d.every((x) => x.status === "succeeded"),
    );
    expect(log.map((d) => d.id)).toEqual([again.id, delivery?.id]);
    expect(rcv.hits).toHaveLength(3);
    const [first, , third] = rcv.hits;
    expect(third?.verified).toBe(true);
    expect(third?.body).toBe(first?.body);
    expect(third?.headers["webhook-id"]).toBe(again.id);
    expect(third?.headers["webhook-signature"]).not.toBe(first?.headers["webhook-signature"]);
  });

  it("a decision sends approval.decided once, with the decision; events a webhook did not choose are not sent", async () => {
    const { webhook } = await addWebhook(t.db, ids.owner, ids.workspaceId, { url: `http://127.0.0.1:${rcv.port}/hook`, events: ["approval.decided"] });
    const c = await challenge();
    await closeChallenge({ db: t.db, secret }, { approvalId: c.id, threadId: ids.threadId, userId: ids.owner }, "reject", "not now");
    const rows = await until(
      "the decided delivery",
      () => t.db.webhookDelivery.findMany({ where: { endpointId: webhook.id } }),
      (d) => d.length > 0,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event: "approval.decided", eventKey: `approval.decided:${c.id}` });
    expect(JSON.parse(rows[0]?.payload ?? "{}").data).toMatchObject({ approval_id: c.id, status: "rejected", decision: "reject" });
  });

  it("a decision is sent once its transaction commits, with its real decision; one that rolls back is never sent", async () => {
    const { webhook } = await addWebhook(t.db, ids.owner, ids.workspaceId, { url: `http://127.0.0.1:${rcv.port}/hook`, events: ["approval.decided"] });
    const c = await challenge();
    const decided = (status: string) => ({ topic: "approval.decided" as const, traceId: "1".repeat(32), threadId: ids.threadId, runId: null, at: Date.now(), data: { approvalId: c.id, status } });
    // Published, but the transaction that decided it rolled back: the row stays pending.
    expect(await recordWebhookEvent(t.db, decided("approved"), { commitWaitMs: 300 })).toBe(0);
    // Published before the commit: the recorder waits for the row, then reads the decision.
    const recorded = recordWebhookEvent(t.db, decided("approved"), { commitWaitMs: 5_000 });
    await new Promise((r) => setTimeout(r, 200));
    await t.db.approval.update({ where: { id: c.id }, data: { status: "approved", decision: "edit", decidedAt: new Date() } });
    expect(await recorded).toBe(1);
    const [row] = await t.db.webhookDelivery.findMany({ where: { endpointId: webhook.id } });
    expect(JSON.parse(row?.payload ?? "{}").data).toMatchObject({ approval_id: c.id, status: "approved", decision: "edit" });
  });

  it("a run's end: completed, incomplete and cancelled are run.finished, failed is run.failed, waiting is nothing; a replay adds nothing", async () => {
    const { webhook } = await addWebhook(t.db, ids.owner, ids.workspaceId, { url: `http://127.0.0.1:${rcv.port}/hook`, events: ["run.finished", "run.failed"] });
    const end = (runId: string, status: string, topic: "task.completed" | "task.failed" | "task.blocked") =>
      publish({
        topic,
        traceId: "1".repeat(32),
        threadId: ids.threadId,
        runId,
        at: Date.now(),
        data: {
          name: topic === "task.completed" ? "run_completed" : topic === "task.failed" ? "run_failed" : "run_suspended",
          chunk: {
            type: "data-run",
            id: runId,
            data: {
              runId,
              traceId: "1".repeat(32),
              status,
              model: { provider: "offline", modelId: "offline", offline: true },
              error: status === "failed" ? { code: "run_error", message: "boom", severity: "CRITICAL", retryable: false, suggested_action: "HALT" } : null,
              usage: null,
            },
          },
        },
      } as never);
    await end("r-completed", "completed", "task.completed");
    await end("r-incomplete", "incomplete", "task.completed");
    await end("r-cancelled", "cancelled", "task.blocked");
    await end("r-waiting", "awaiting_approval", "task.blocked");
    await end("r-failed", "failed", "task.failed");
    await end("r-failed", "failed", "task.failed");
    const rows = await t.db.webhookDelivery.findMany({ where: { endpointId: webhook.id }, orderBy: { eventKey: "asc" } });
    expect(rows.map((r) => r.eventKey)).toEqual(["run.failed:r-failed", "run.finished:r-cancelled", "run.finished:r-completed", "run.finished:r-incomplete"]);
    const failed = JSON.parse(rows[0]?.payload ?? "{}");
    expect(failed.data).toMatchObject({ run_id: "r-failed", status: "failed", error: { code: "run_error", message: "boom" }, path: `/threads/${ids.threadId}` });
  });

  it("a private address is refused when saved (422) unless opened; a name resolving to one fails without a connection", async () => {
    await expect(addWebhook(t.db, ids.owner, ids.workspaceId, { url: `http://127.0.0.1:${hidden.port}/hook`, events: ["approval.required"] })).rejects.toMatchObject({
      code: "unprocessable",
      reason: "webhook_url_not_allowed",
      message: expect.stringContaining("OUTBOUND_ALLOW_PRIVATE"),
    });
    // Names are judged on every send, by what they resolve to.
    const { webhook } = await addWebhook(t.db, ids.owner, ids.workspaceId, { url: `http://localhost:${hidden.port}/hook`, events: ["approval.required"] });
    await expect(updateWebhook(t.db, ids.owner, ids.workspaceId, webhook.id, { url: `http://10.0.0.1:${hidden.port}/` })).rejects.toMatchObject({ reason: "webhook_url_not_allowed" });
    sender("s1");
    await challenge();
    const [d] = await until(
      "the delivery to fail",
      () => deliveriesOf(webhook.id),
      (x) => x[0]?.status === "failed",
    );
    expect(d).toMatchObject({ status: "failed", attempts: 1, lastStatus: null });
    expect(d?.lastError).toMatch(/private, local or reserved address/);
    expect(hidden.hits).toEqual([]);
  });

  it("two senders on one database never send one delivery twice", async () => {
    const slow = await receiver(30);
    const close = openHostsForTests([`127.0.0.1:${slow.port}`]);
    try {
      const { webhook, secret: whsec } = await addWebhook(t.db, ids.owner, ids.workspaceId, { url: `http://127.0.0.1:${slow.port}/hook`, events: ["run.finished"] });
      slow.secret = whsec;
      await t.db.webhookDelivery.createMany({
        data: Array.from({ length: 40 }, (_, i) => ({ endpointId: webhook.id, event: "run.finished", eventKey: `run.finished:r${i}`, payload: JSON.stringify({ n: i }), nextAttemptAt: new Date() })),
      });
      sender("a", { concurrency: 4 });
      sender("b", { concurrency: 4 });
      await until(
        "every delivery to succeed",
        () => t.db.webhookDelivery.count({ where: { endpointId: webhook.id, status: "succeeded" } }),
        (n) => n === 40,
      );
      const sent = slow.hits.map((h) => String(h.headers["webhook-id"]));
      expect(sent).toHaveLength(40);
      expect(new Set(sent).size).toBe(40);
      expect(slow.hits.every((h) => h.verified)).toBe(true);
      expect(await t.db.webhookDelivery.count({ where: { endpointId: webhook.id, attempts: 1 } })).toBe(40);
    } finally {
      close();
      slow.server.close();
    }
  });
});
