import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolDefinition } from "./gateway";
import { httpRequest } from "./http-request";
import { builtinTools } from "./registry";
import type { NetworkAccess } from "./types";
import { openHostsForTests } from "../net/operator-open-hosts";

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

/** A real HTTP server on 127.0.0.1 (an ephemeral port) answering with `handler`. */
async function serve(handler: Handler): Promise<{ server: Server; port: number; origin: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handler(req, Buffer.concat(chunks).toString("utf8"), res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, port, origin: `http://127.0.0.1:${port}` };
}

let ws: string;
let main: Awaited<ReturnType<typeof serve>>;
let other: Awaited<ReturnType<typeof serve>>;
let network: NetworkAccess;
let closeOpened: () => void = () => {};

beforeAll(async () => {
  ws = await fs.mkdtemp(path.join(os.tmpdir(), "phyl-http-"));
  other = await serve((req, body, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ server: "other", path: req.url, authorization: req.headers.authorization ?? null, cookie: req.headers.cookie ?? null, body }));
  });
  main = await serve((req, body, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    switch (url.pathname) {
      case "/echo":
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ method: req.method, headers: req.headers, body }));
        return;
      case "/redirect":
        res.writeHead(Number(url.searchParams.get("status") ?? 302), { location: url.searchParams.get("to") ?? "/echo" });
        res.end("moving");
        return;
      case "/big":
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("é".repeat(5000)); // 10,000 bytes of two-byte characters
        return;
      case "/slow":
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("first part;");
        return; // never ends
      default: {
        const text = `hello from ${url.pathname}`;
        res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text) });
        res.end(text);
      }
    }
  });
  network = { allowHosts: [`127.0.0.1:${main.port}`, `127.0.0.1:${other.port}`], methods: ["GET", "HEAD", "POST"], maxResponseBytes: 1_048_576, timeoutMs: 2_000 };
  // Loopback servers are private: the operator opens them (OUTBOUND_ALLOW_PRIVATE), as a deployment would.
  closeOpened = openHostsForTests([`127.0.0.1:${main.port}`, `127.0.0.1:${other.port}`]);
});

afterAll(async () => {
  closeOpened();
  for (const s of [main, other]) {
    s.server.closeAllConnections();
    await new Promise((r) => s.server.close(r));
  }
  await fs.rm(ws, { recursive: true, force: true });
});

const call = (input: unknown, net: NetworkAccess | null = network) => runToolDefinition(httpRequest, input, { workspaceDir: ws, ...(net ? { network: net } : {}) });
const parsed = (r: { output: string }) => JSON.parse(r.output);

describe("http_request", () => {
  it("is a registered side-effecting built-in", () => {
    expect(builtinTools.http_request).toBe(httpRequest);
    expect(httpRequest).toMatchObject({ sideEffect: true, timeoutMs: 30_000, permission: "user" });
  });

  it("GETs an allowlisted host and returns status, headers and body", async () => {
    const r = await call({ url: `${main.origin}/hello` });
    expect(r.status).toBe("success");
    expect(parsed(r)).toEqual({
      url: `${main.origin}/hello`,
      status: 200,
      headers: { "content-type": "text/plain; charset=utf-8", "content-length": "17" },
      body: "hello from /hello",
      truncated: false,
      bytes: 17,
    });
  });

  it("reaches the allowed address through its other spellings (the host is canonicalised first)", async () => {
    const r = await call({ url: `http://2130706433:${main.port}/canonical` });
    expect(parsed(r)).toMatchObject({ status: 200, body: "hello from /canonical", url: `${main.origin}/canonical` });
  });

  it("sends method, headers and body", async () => {
    const r = await call({ url: `${main.origin}/echo`, method: "POST", headers: { "X-Trace": "abc", "Content-Type": "text/plain" }, body: "payload" });
    const echoed = JSON.parse(parsed(r).body);
    expect(echoed).toMatchObject({ method: "POST", body: "payload", headers: { "x-trace": "abc", "content-type": "text/plain" } });
  });

  it("sends the call's key as Idempotency-Key, the same on every attempt, and keeps a key the call sets itself", async () => {
    const keyed = (input: unknown) => runToolDefinition(httpRequest, input, { workspaceDir: ws, network, callKey: "k".repeat(32) });
    const first = JSON.parse(parsed(await keyed({ url: `${main.origin}/echo`, method: "POST", body: "a" })).body);
    const again = JSON.parse(parsed(await keyed({ url: `${main.origin}/echo`, method: "POST", body: "a" })).body);
    expect(first.headers["idempotency-key"]).toBe("k".repeat(32));
    expect(again.headers["idempotency-key"]).toBe(first.headers["idempotency-key"]);
    const own = JSON.parse(parsed(await keyed({ url: `${main.origin}/echo`, method: "POST", headers: { "Idempotency-Key": "mine" }, body: "a" })).body);
    expect(own.headers["idempotency-key"]).toBe("mine");
    // Outside a run (no call key), no header.
    expect(JSON.parse(parsed(await call({ url: `${main.origin}/echo`, method: "POST", body: "a" })).body).headers["idempotency-key"]).toBeUndefined();
  });

  it("is idempotent for GET, HEAD, PUT and DELETE (RFC 9110 9.2.2), not for POST or PATCH", () => {
    const of = (method: string) => httpRequest.idempotent?.({ url: "https://a.example", method: method as never });
    expect(["GET", "HEAD", "PUT", "DELETE"].map(of)).toEqual([true, true, true, true]);
    expect(["POST", "PATCH"].map(of)).toEqual([false, false]);
  });

  it("answers HEAD without a body", async () => {
    const r = await call({ url: `${main.origin}/hello`, method: "HEAD" });
    expect(parsed(r)).toMatchObject({ status: 200, body: "", bytes: 0, truncated: false });
  });

  it("follows a relative redirect and reports the final URL", async () => {
    const r = await call({ url: `${main.origin}/redirect?to=/landing` });
    expect(parsed(r)).toMatchObject({ url: `${main.origin}/landing`, status: 200, body: "hello from /landing" });
  });

  it("turns a POST into a GET without body after 303", async () => {
    const r = await call({ url: `${main.origin}/redirect?status=303&to=/echo`, method: "POST", body: "form" });
    expect(JSON.parse(parsed(r).body)).toMatchObject({ method: "GET", body: "" });
  });

  it("keeps the method and body through 307", async () => {
    const r = await call({ url: `${main.origin}/redirect?status=307&to=/echo`, method: "POST", body: "again" });
    expect(JSON.parse(parsed(r).body)).toMatchObject({ method: "POST", body: "again" });
  });

  it("drops credentials when a redirect leaves the origin", async () => {
    const to = encodeURIComponent(`${other.origin}/landing`);
    const r = await call({ url: `${main.origin}/redirect?to=${to}`, headers: { Authorization: "Bearer secret", Cookie: "a=b", "X-Keep": "1" } });
    expect(JSON.parse(parsed(r).body)).toMatchObject({ server: "other", authorization: null, cookie: null });
  });

  it("cuts the body at maxResponseBytes without splitting a character", async () => {
    const r = await call({ url: `${main.origin}/big` }, { ...network, maxResponseBytes: 1001 });
    const out = parsed(r);
    expect(out).toMatchObject({ truncated: true, bytes: 1001 });
    expect(out.body).toBe("é".repeat(500));
  });

  it("returns a whole body under the limit", async () => {
    expect(parsed(await call({ url: `${main.origin}/big` }))).toMatchObject({ truncated: false, bytes: 10_000 });
  });

  it("times out at the flow's timeoutMs while the body trickles", async () => {
    const r = await call({ url: `${main.origin}/slow` }, { ...network, timeoutMs: 200 });
    expect(r.errorCode).toBe("network_timeout");
    expect(r.output).toMatch(/within 200 ms.*Flow settings/);
  });

  it("reports a refused connection", async () => {
    const closed = await serve(() => {});
    await new Promise((r) => closed.server.close(r));
    const close = openHostsForTests([`127.0.0.1:${closed.port}`]);
    try {
      const r = await call({ url: `${closed.origin}/` }, { ...network, allowHosts: [`127.0.0.1:${closed.port}`] });
      expect(r.errorCode).toBe("network_error");
      expect(r.output).toContain("ECONNREFUSED");
    } finally {
      close();
    }
  });

  it("refuses a loopback server the flow allowlists but the operator did not open, without reaching it", async () => {
    let hits = 0;
    const inner = await serve((_req, _body, res) => {
      hits++;
      res.end("internal secret");
    });
    try {
      const r = await call({ url: `${inner.origin}/admin` }, { ...network, allowHosts: [`127.0.0.1:${inner.port}`] });
      expect(r.errorCode).toBe("address_not_allowed");
      expect(r.output).toContain("OUTBOUND_ALLOW_PRIVATE");
      expect(r.output).not.toContain("internal secret");
      expect(hits).toBe(0);
    } finally {
      await new Promise((res) => inner.server.close(res));
    }
  });

  it("is off without a network allowlist, and says where to turn it on", async () => {
    for (const net of [null, { ...network, allowHosts: [] }]) {
      const r = await call({ url: `${main.origin}/` }, net);
      expect(r.errorCode).toBe("network_off");
      expect(r.output).toBe("Network is off for this flow; add the host to the flow's network allowlist in Flow settings.");
    }
  });

  it("validates its input", async () => {
    const headers = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`x-h${i}`, "v"]));
    expect((await call({ url: `${main.origin}/`, headers })).errorCode).toBe("invalid_input");
    expect((await call({ url: `${main.origin}/`, method: "TRACE" })).errorCode).toBe("invalid_input");
    expect((await call({ url: `${main.origin}/`, method: "POST", body: "x".repeat(1_048_577) })).errorCode).toBe("invalid_input");
  });
});
