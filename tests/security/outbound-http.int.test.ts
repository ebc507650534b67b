import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, readStream, signIn } from "../http/client";
import { startServer, type TestServer } from "../http/server";

/**
 * The guarded outbound client in the built app (docs/security.md "Outbound requests",
 * "Operator settings"): provider base URLs a tenant saves, and the runs that use them. The
 * operator opened one loopback port with OUTBOUND_ALLOW_PRIVATE; another loopback server must
 * never be reached, whatever the tenant saves.
 */

async function counting(): Promise<{ server: Server; port: number; hits: string[] }> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(400, { "content-type": "text/plain" });
    res.end("internal secret body");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

let s: TestServer;
let openedSrv: Awaited<ReturnType<typeof counting>>;
let hidden: Awaited<ReturnType<typeof counting>>;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  openedSrv = await counting();
  hidden = await counting();
  s = await startServer({ OUTBOUND_ALLOW_PRIVATE: `127.0.0.1:${openedSrv.port}` });
  const [a, b] = s.users;
  if (!a || !b) throw new Error("fixture users missing");
  alice = await signIn(s.url, a.email, a.password);
  bob = await signIn(s.url, b.email, b.password);
});

afterAll(async () => {
  await s?.stop();
  for (const x of [openedSrv, hidden]) x?.server.close();
});

const save = (c: Client, baseUrl: string, isDefault = false) =>
  c.fetch("/api/settings/providers", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ provider: "openai-compatible", baseUrl, model: "m", isDefault }) });

async function runOnce(c: Client, flowId: string): Promise<string> {
  const created = await c.post("/api/threads", { flowId, task: "Say hello" });
  expect(created.status).toBe(201);
  const { threadId } = (await created.json()) as { threadId: string };
  const res = await c.post(`/api/threads/${threadId}/stream`, { input: { kind: "message", text: "Say hello" } });
  return JSON.stringify(await readStream(res));
}

describe("outbound requests in the app", () => {
  it.each([
    () => `http://127.0.0.1:${hidden.port}/v1`,
    () => `http://[::ffff:7f00:1]:${hidden.port}/v1`,
    () => `http://2130706433:${hidden.port}/v1`,
    () => "http://169.254.169.254/latest/meta-data",
    () => "http://metadata.google.internal/",
    () => "http://10.0.0.1/v1",
    () => "http://[::1",
  ])("an attacker cannot save a provider base URL on a private or metadata address (%#): 422 naming baseUrl", async (url) => {
    const res = await save(bob, url());
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { message: string; issues?: { path: string }[] } };
    expect(body.error.issues?.[0]?.path).toBe("baseUrl");
    expect(body.error.message).toMatch(/^baseUrl: /);
  });

  it("a base URL on the host:port the operator opened is saved and reached by runs", async () => {
    const res = await save(alice, `http://127.0.0.1:${openedSrv.port}/v1`, true);
    expect(res.status).toBe(200);
    await runOnce(alice, s.users[0]?.flowId ?? "");
    expect(openedSrv.hits.length).toBeGreaterThan(0);
  });

  it("an attacker's base URL whose name resolves to loopback is refused when the run uses it, in the product's words, and never reached", async () => {
    const res = await save(bob, `http://localhost:${hidden.port}/v1`, true);
    expect(res.status).toBe(200);
    const stream = await runOnce(bob, s.users[1]?.flowId ?? "");
    expect(stream).toContain("OUTBOUND_ALLOW_PRIVATE");
    expect(stream).not.toContain("internal secret body");
    expect(hidden.hits).toEqual([]);
  });
});
