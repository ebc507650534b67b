import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { docsVerifySnippet } from "../../lib/webhooks/docs-snippet";
import { type Client, readStream, signIn } from "./client";
import { startRun } from "./runs";
import { startServer, type TestServer } from "./server";

/**
 * Webhooks in the built app (docs/webhooks.md): an owner adds one over the API, a run that
 * stops at an approval, the decision and the run's end each reach a receiver on 127.0.0.1
 * (opened by the operator) signed as documented, and the log, redelivery, disable and
 * delete work over HTTP.
 */

interface Hit {
  headers: IncomingHttpHeaders;
  body: string;
  verified: boolean;
}

const verify = docsVerifySnippet();

describe("webhooks over HTTP", () => {
  let s: TestServer;
  let alice: Client;
  let rcv: Server;
  let port: number;
  let hidden: Server;
  let hiddenPort: number;
  const hits: Hit[] = [];
  let secret = "";
  let base = "";

  const listen = async (onRequest: (headers: IncomingHttpHeaders, body: string) => void) => {
    const srv = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => {
        body += c;
      });
      req.on("end", () => {
        onRequest(req.headers, body);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    return { srv, port: (srv.address() as AddressInfo).port };
  };
  const typesSeen = () => hits.map((h) => (JSON.parse(h.body) as { type: string }).type);
  async function until(what: string, done: () => boolean, ms = 30_000) {
    const deadline = Date.now() + ms;
    while (!done()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(typesSeen())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  beforeAll(async () => {
    const a = await listen((headers, body) => {
      const flat = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));
      hits.push({ headers, body, verified: verify(secret, flat, body) });
    });
    rcv = a.srv;
    port = a.port;
    const b = await listen(() => {
      throw new Error("the hidden receiver must never be reached");
    });
    hidden = b.srv;
    hiddenPort = b.port;
    s = await startServer({ OUTBOUND_ALLOW_PRIVATE: `127.0.0.1:${port}`, WEBHOOK_RETRY_BASE_MS: "50", PUBLIC_URL: "https://phylactery.test" });
    const [u] = s.users;
    if (!u) throw new Error("users");
    alice = await signIn(s.url, u.email, u.password);
    const db = createDb(s.dbUrl);
    try {
      const { workspaceId } = await db.flow.findUniqueOrThrow({ where: { id: u.flowId }, select: { workspaceId: true } });
      base = `/api/workspaces/${workspaceId}/webhooks`;
    } finally {
      await db.$disconnect();
    }
  }, 120_000);
  afterAll(async () => {
    await s?.stop();
    rcv?.close();
    hidden?.close();
  });

  it("refuses a URL with credentials, and a private address the operator did not open (422)", async () => {
    const creds = await alice.post(base, { url: `https://user:pw@hooks.example.com/x`, events: ["run.failed"] });
    expect(creds.status).toBe(422);
    expect(JSON.stringify(await creds.json())).toContain("no user name or password");
    const closed = await alice.post(base, { url: `http://127.0.0.1:${hiddenPort}/hook`, events: ["run.failed"] });
    expect(closed.status).toBe(422);
    expect(await closed.json()).toMatchObject({ error: { reason: "webhook_url_not_allowed", issues: [{ path: "url" }] } });
    const list = await alice.fetch(base);
    expect(await list.json()).toEqual({ webhooks: [] });
    // Settings shows the owner the workspace's empty webhook list and the add form.
    const page = await (await alice.fetch("/settings")).text();
    expect(page).toContain(`data-testid="webhooks-${base.split("/")[3]}"`);
    expect(page).toContain('data-testid="webhooks-empty"');
    expect(page).toContain('data-testid="webhook-add-event-approval.required"');
  });

  it("an approval, its decision and the run's end reach the receiver, signed; the log, redelivery, disable and delete work", async () => {
    const created = await alice.post(base, { url: `http://127.0.0.1:${port}/hook`, events: ["approval.required", "approval.decided", "run.finished", "run.failed"] });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { webhook: { id: string; enabled: boolean }; secret: string };
    secret = body.secret;
    expect(secret).toMatch(/^whsec_/);
    expect(body.webhook.enabled).toBe(true);
    const listed = await (await alice.fetch(base)).text();
    expect(listed).toContain(body.webhook.id);
    expect(listed).not.toContain(secret);
    const hook = `${base}/${body.webhook.id}`;
    // The secret is sealed at rest.
    const db = createDb(s.dbUrl);
    try {
      const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id: body.webhook.id } });
      expect(row.secret).not.toContain(secret.slice("whsec_".length, 20));
    } finally {
      await db.$disconnect();
    }

    const { threadId, approval } = await startRun(alice, s.users[0]?.flowId ?? "");
    await until("approval.required", () => typesSeen().includes("approval.required"));
    const required = JSON.parse(hits[0]?.body ?? "{}");
    expect(required.data).toMatchObject({
      thread_id: threadId,
      approval_id: approval.approvalId,
      args_hash: approval.argsHash,
      status: "pending",
      url: `https://phylactery.test/approvals/${approval.approvalId}`,
    });
    expect(required.data.run_id).toEqual(expect.any(String));
    expect(hits[0]?.body).not.toContain(approval.token);

    const decided = await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "decision", decision: "approve", approvalId: approval.approvalId, token: approval.token } });
    expect(decided.status).toBe(200);
    await readStream(decided);
    await until("approval.decided and run.finished", () => typesSeen().includes("approval.decided") && typesSeen().includes("run.finished"));
    const byType = (t: string) => JSON.parse(hits.find((h) => JSON.parse(h.body).type === t)?.body ?? "{}");
    expect(byType("approval.decided").data).toMatchObject({ approval_id: approval.approvalId, status: "approved", decision: "approve", run_id: required.data.run_id });
    expect(byType("run.finished").data).toMatchObject({ thread_id: threadId, status: "completed", path: `/threads/${threadId}` });
    expect(byType("run.finished").data.run_id).not.toBe(required.data.run_id);
    expect(hits.every((h) => h.verified)).toBe(true);

    const log = (await (await alice.fetch(`${hook}/deliveries`)).json()) as { deliveries: { id: string; event: string; status: string; attempts: number; lastStatus: number; payload: unknown }[] };
    expect(log.deliveries.map((d) => d.event)).toEqual(["run.finished", "approval.decided", "approval.required"]);
    for (const d of log.deliveries) expect(d).toMatchObject({ status: "succeeded", attempts: 1, lastStatus: 204 });
    expect(log.deliveries[2]?.payload).toEqual(required);

    const first = log.deliveries[2]?.id ?? "";
    const again = await alice.fetch(`${hook}/deliveries/${first}/redeliver`, { method: "POST" });
    expect(again.status).toBe(202);
    const redelivery = ((await again.json()) as { delivery: { id: string; redeliveryOf: string } }).delivery;
    expect(redelivery.redeliveryOf).toBe(first);
    await until("the redelivery", () => hits.some((h) => h.headers["webhook-id"] === redelivery.id));
    const resent = hits.find((h) => h.headers["webhook-id"] === redelivery.id);
    expect(resent?.body).toBe(hits[0]?.body);
    expect(resent?.verified).toBe(true);

    const off = await alice.fetch(hook, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ enabled: false }) });
    expect(await off.json()).toMatchObject({ webhook: { enabled: false } });
    const refused = await alice.fetch(`${hook}/deliveries/${first}/redeliver`, { method: "POST" });
    expect(refused.status).toBe(409);
    expect((await alice.fetch(hook, { method: "DELETE" })).status).toBe(204);
    expect(await (await alice.fetch(base)).json()).toEqual({ webhooks: [] });
    expect((await alice.fetch(`${hook}/deliveries`)).status).toBe(404);
  }, 120_000);
});
