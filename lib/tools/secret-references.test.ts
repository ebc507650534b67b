import { promises as fs } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openHostsForTests } from "../net/operator-open-hosts";
import { runToolDefinition } from "./gateway";
import { httpRequest } from "./http-request";
import type { NetworkAccess, SecretAccess } from "./types";

/**
 * `{{secret:NAME}}` in http_request headers through the gateway (docs/secrets.md), against
 * real servers on 127.0.0.1: the value reaches the allowed host only, comes back as the
 * reference, and every refusal happens before any byte leaves.
 */

const CANARY = "cnry_4f9a1c7e2b8d6035af19e4c2b7d8a6f1";
type Seen = { url: string; headers: Record<string, string | string[] | undefined> };

async function echoServer(seen: Seen[], redirectTo?: () => string): Promise<{ server: Server; origin: string; port: number }> {
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    if (req.url?.startsWith("/redirect") && redirectTo) {
      res.writeHead(302, { location: redirectTo() }).end();
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ echoed: req.headers }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { server, port, origin: `http://127.0.0.1:${port}` };
}

let ws: string;
const allowedSeen: Seen[] = [];
const otherSeen: Seen[] = [];
let allowed: Awaited<ReturnType<typeof echoServer>>;
let other: Awaited<ReturnType<typeof echoServer>>;
let network: NetworkAccess;
let close = () => {};
const uses: { names: readonly string[]; host: string }[] = [];

/** A workspace with API_TOKEN (the allowed server only) and OTHER_TOKEN (any 127.0.0.1 port). */
const secrets = (): SecretAccess => ({
  async resolve(names) {
    const all = new Map([
      ["API_TOKEN", { value: CANARY, hosts: [`127.0.0.1:${allowed.port}`] }],
      ["OTHER_TOKEN", { value: "other-value-0123456789", hosts: ["127.0.0.1"] }],
    ]);
    return new Map([...all].filter(([n]) => names.includes(n)));
  },
  async used(names, host) {
    uses.push({ names, host });
  },
});

beforeAll(async () => {
  ws = await fs.mkdtemp(path.join(os.tmpdir(), "phyl-secret-ref-"));
  other = await echoServer(otherSeen);
  allowed = await echoServer(allowedSeen, () => `${other.origin}/landed`);
  network = { allowHosts: [`127.0.0.1:${allowed.port}`, `127.0.0.1:${other.port}`], methods: ["GET", "POST"], maxResponseBytes: 1_048_576, timeoutMs: 5_000 };
  close = openHostsForTests([`127.0.0.1:${allowed.port}`, `127.0.0.1:${other.port}`]);
});

afterAll(async () => {
  close();
  for (const s of [allowed, other]) {
    s.server.closeAllConnections();
    await new Promise((r) => s.server.close(r));
  }
  await fs.rm(ws, { recursive: true, force: true });
});

const call = (input: unknown, withSecrets = true) => runToolDefinition(httpRequest, input, { workspaceDir: ws, network, ...(withSecrets ? { secrets: secrets() } : {}) });

describe("secret references in http_request", () => {
  it("sends the value to an allowed host and answers with the reference where the server echoed it", async () => {
    allowedSeen.length = 0;
    uses.length = 0;
    const r = await call({ url: `${allowed.origin}/echo`, headers: { Authorization: "Bearer {{secret:API_TOKEN}}", "X-Both": "{{secret:API_TOKEN}}:{{secret:OTHER_TOKEN}}" } });
    expect(r.status).toBe("success");
    expect(allowedSeen[0]?.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(allowedSeen[0]?.headers["x-both"]).toBe(`${CANARY}:other-value-0123456789`);
    expect(r.output).not.toContain(CANARY);
    expect(r.output).not.toContain("other-value-0123456789");
    const body = JSON.parse(JSON.parse(r.output).body) as { echoed: Record<string, string> };
    expect(body.echoed.authorization).toBe("Bearer {{secret:API_TOKEN}}");
    expect(body.echoed["x-both"]).toBe("{{secret:API_TOKEN}}:{{secret:OTHER_TOKEN}}");
    expect(uses).toEqual([{ names: ["API_TOKEN", "OTHER_TOKEN"], host: "127.0.0.1" }]);
  });

  it("refuses a host the secret does not name before any byte leaves, saying where it may go", async () => {
    otherSeen.length = 0;
    uses.length = 0;
    const r = await call({ url: `${other.origin}/steal`, headers: { Authorization: "Bearer {{secret:API_TOKEN}}" } });
    expect(r).toMatchObject({ status: "error", errorCode: "secret_host_not_allowed" });
    expect(r.output).toBe(`Secret API_TOKEN may only be sent to 127.0.0.1:${allowed.port}; this call goes to 127.0.0.1:${other.port}. The call was not made.`);
    expect(otherSeen).toEqual([]);
    expect(uses).toEqual([]);
  });

  it("refuses an unknown name without naming any other secret, and a reference outside the headers", async () => {
    otherSeen.length = 0;
    allowedSeen.length = 0;
    const unknown = await call({ url: `${allowed.origin}/x`, headers: { Authorization: "Bearer {{secret:NOPE}}" } });
    expect(unknown).toMatchObject({ status: "error", errorCode: "unknown_secret" });
    expect(unknown.output).toContain("No secret named NOPE in this workspace");
    expect(unknown.output).not.toMatch(/API_TOKEN|OTHER_TOKEN/);
    for (const input of [{ url: `${allowed.origin}/x?key={{secret:API_TOKEN}}` }, { url: `${allowed.origin}/x`, method: "POST", body: "token={{secret:API_TOKEN}}" }]) {
      const r = await call(input);
      expect(r).toMatchObject({ status: "error", errorCode: "secret_not_allowed_here" });
    }
    const none = await call({ url: `${allowed.origin}/x`, headers: { Authorization: "Bearer {{secret:API_TOKEN}}" } }, false);
    expect(none).toMatchObject({ status: "error", errorCode: "secrets_unavailable" });
    expect(allowedSeen).toEqual([]);
  });

  it("drops a header carrying a value when a redirect leaves for a host the secret does not name", async () => {
    otherSeen.length = 0;
    const r = await call({ url: `${allowed.origin}/redirect`, headers: { "X-Api-Key": "{{secret:API_TOKEN}}", "X-Plain": "kept" } });
    expect(r.status).toBe("success");
    expect(otherSeen[0]?.url).toBe("/landed");
    expect(otherSeen[0]?.headers["x-api-key"]).toBeUndefined();
    expect(otherSeen[0]?.headers["x-plain"]).toBe("kept");
    // A secret that names both ports follows the redirect.
    otherSeen.length = 0;
    await call({ url: `${allowed.origin}/redirect`, headers: { "X-Api-Key": "{{secret:OTHER_TOKEN}}" } });
    expect(otherSeen[0]?.headers["x-api-key"]).toBe("other-value-0123456789");
  });

  it("leaves a call without references as it was", async () => {
    allowedSeen.length = 0;
    const r = await call({ url: `${allowed.origin}/plain`, headers: { "X-Note": "{secret:API_TOKEN}" } });
    expect(r.status).toBe("success");
    expect(allowedSeen[0]?.headers["x-note"]).toBe("{secret:API_TOKEN}");
  });
});
