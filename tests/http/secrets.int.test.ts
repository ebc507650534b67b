import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { createFlow } from "../../lib/db/flows";
import { rowsContaining } from "../../lib/memory/test-fixtures";
import { memoryAssistant } from "../../templates/memory-assistant";
import { type Client, lastPart, readStream, signIn } from "./client";
import { startServer, type TestServer } from "./server";

/**
 * Workspace secrets in the built app (docs/secrets.md): an owner adds a canary secret over
 * the API, a run's http_request sends it to a local echo server (opened with
 * OUTBOUND_ALLOW_PRIVATE) that reflects the request headers, and then the value is found in
 * no row of any table, no workspace file, no server log line, no byte of the run's stream,
 * no webhook delivery and no LangGraph API answer. The API refuses bad input naming the
 * field, and viewers cannot change secrets.
 */

describe("workspace secrets over HTTP", () => {
  let s: TestServer;
  let alice: Client;
  let victor: Client;
  let echo: Server;
  let hook: Server;
  const echoed: IncomingHttpHeaders[] = [];
  const delivered: string[] = [];
  let echoPort = 0;
  let workspaceId = "";
  let flowId = "";
  const canary = randomBytes(24).toString("base64url").slice(0, 32);

  const listen = async (onRequest: (headers: IncomingHttpHeaders, body: string) => string) => {
    const srv = createServer((req, res) => {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (c: string) => {
        body += c;
      });
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(onRequest(req.headers, body)));
    });
    await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
    return { srv, port: (srv.address() as AddressInfo).port };
  };

  beforeAll(async () => {
    const e = await listen((headers) => {
      echoed.push(headers);
      return JSON.stringify({ youSent: headers });
    });
    echo = e.srv;
    echoPort = e.port;
    const h = await listen((_headers, body) => {
      delivered.push(body);
      return "{}";
    });
    hook = h.srv;
    s = await startServer({ OUTBOUND_ALLOW_PRIVATE: `127.0.0.1:${echoPort},127.0.0.1:${h.port}`, LOG_LEVEL: "debug", WEBHOOK_RETRY_BASE_MS: "50" });
    const [a, , , v] = s.users;
    if (!a || !v) throw new Error("users");
    alice = await signIn(s.url, a.email, a.password);
    victor = await signIn(s.url, v.email, v.password);
    const db = createDb(s.dbUrl);
    try {
      workspaceId = (await db.flow.findUniqueOrThrow({ where: { id: a.flowId }, select: { workspaceId: true } })).workspaceId;
      const doc = { ...memoryAssistant, settings: { ...memoryAssistant.settings, network: { ...memoryAssistant.settings.network, allowHosts: [`127.0.0.1:${echoPort}`] } } };
      flowId = (await createFlow(db, a.id, doc, { workspaceId })).id;
    } finally {
      await db.$disconnect();
    }
    const added = await alice.post(`/api/workspaces/${workspaceId}/webhooks`, { url: `http://127.0.0.1:${h.port}/hook`, events: ["run.finished", "run.failed"] });
    expect(added.status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await s?.stop();
    for (const srv of [echo, hook]) {
      srv?.closeAllConnections();
      await new Promise((r) => srv?.close(r));
    }
  });

  it("refuses bad input naming the field, and changes by a viewer", async () => {
    const base = `/api/workspaces/${workspaceId}/secrets`;
    const bad = [
      [{ name: "api_token", value: "v", hosts: ["a.example.com"] }, "name"],
      [{ name: "API_TOKEN", value: "x".repeat(8193), hosts: ["a.example.com"] }, "value"],
      [{ name: "API_TOKEN", value: "v", hosts: ["https://a.example.com/"] }, "hosts.0"],
      [{ name: "API_TOKEN", value: "v", hosts: [] }, "hosts"],
    ] as const;
    for (const [body, field] of bad) {
      const res = await alice.post(base, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      const err = ((await res.json()) as { error: { issues?: { path: string }[] } }).error;
      expect(err.issues?.map((i) => i.path)).toContain(field);
    }
    expect((await victor.post(base, { name: "VIEWER_TOKEN", value: "v", hosts: ["a.example.com"] })).status).toBe(403);
    expect((await victor.fetch(base)).status).toBe(200);
  });

  it("sends the canary to the echo server; the value is then in no table, file, log line, stream, webhook or LangGraph answer", async () => {
    const created = await alice.post(`/api/workspaces/${workspaceId}/secrets`, { name: "API_TOKEN", value: canary, hosts: [`127.0.0.1:${echoPort}`] });
    expect(created.status).toBe(201);
    expect(await created.text()).not.toContain(canary);

    const task = `Use http_request with {"url": "http://127.0.0.1:${echoPort}/whoami", "method": "GET", "headers": {"Authorization": "Bearer {{secret:API_TOKEN}}"}}`;
    const thread = await alice.post("/api/threads", { flowId, task });
    expect(thread.status).toBe(201);
    const { threadId } = (await thread.json()) as { threadId: string };
    const res = await alice.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: task } });
    const streamBytes = await res.clone().text();
    const chunks = await readStream(res);
    expect(lastPart(chunks, "data-run")?.status).toBe("completed");
    expect(echoed.map((h) => h.authorization)).toEqual([`Bearer ${canary}`]);
    expect(streamBytes).toContain("{{secret:API_TOKEN}}");

    // Wait for the webhook delivery of the run's end.
    const deadline = Date.now() + 30_000;
    while (!delivered.some((b) => b.includes(threadId)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(delivered.some((b) => b.includes(threadId))).toBe(true);

    const answers: string[] = [streamBytes];
    for (const p of [
      `/api/threads/${threadId}/checkpoints`,
      `/api/langgraph/threads/${threadId}`,
      `/api/langgraph/threads/${threadId}/state`,
      `/api/langgraph/threads/${threadId}/runs`,
      `/api/workspaces/${workspaceId}/secrets`,
    ]) {
      const r = await alice.fetch(p);
      expect(r.status, p).toBeLessThan(400);
      answers.push(await r.text());
    }
    const history = await alice.post(`/api/langgraph/threads/${threadId}/history`, { limit: 10 });
    expect(history.status).toBe(200);
    answers.push(await history.text());
    const follow = await alice.fetch(`/api/threads/${threadId}/stream`);
    answers.push(await follow.text());
    expect(answers.join("\n")).toContain("{{secret:API_TOKEN}}");

    expect(answers.filter((a) => a.includes(canary))).toEqual([]);
    expect(delivered.filter((b) => b.includes(canary))).toEqual([]);
    expect(s.log.join("").length).toBeGreaterThan(0);
    expect(s.log.filter((l) => l.includes(canary))).toEqual([]);
    const files = (readdirSync(s.workspacesDir, { recursive: true }) as string[]).map((f) => path.join(s.workspacesDir, f)).filter((f) => statSync(f).isFile());
    expect(files.filter((f) => readFileSync(f).includes(Buffer.from(canary)))).toEqual([]);
    const db = createDb(s.dbUrl);
    try {
      expect(await db.webhookDelivery.count()).toBeGreaterThan(0);
      expect(await rowsContaining(db, canary)).toEqual([]);
      // The scan reads the secrets table: the sealed column is found, the value is not.
      const row = await db.workspaceSecret.findFirstOrThrow({ where: { workspaceId, name: "API_TOKEN" } });
      expect(await rowsContaining(db, row.sealedValue)).toEqual(["WorkspaceSecret.sealedValue"]);
    } finally {
      await db.$disconnect();
    }
  });
});
