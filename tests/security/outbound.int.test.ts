import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetch as undiciFetch } from "undici";
import { createGuardedAgent, type Resolve } from "@/lib/net/guarded-agent";
import { createGuardedFetch, guardedFetch } from "@/lib/net/guarded-fetch";
import { openHostsForTests } from "@/lib/net/operator-open-hosts";

/**
 * The guarded outbound client against real servers (docs/security.md "Outbound requests").
 * Two servers must never be reached: one on 127.0.0.1, one on ::1; they count every hit.
 * A third, on 127.0.0.1, is the one host:port the operator opened (OUTBOUND_ALLOW_PRIVATE);
 * it answers and redirects where the attacker asks. Every address encoding in the catalogue
 * is tried against the never-reached servers' ports; all must be refused before connecting.
 */

interface Counted {
  server: Server;
  port: number;
  hits: string[];
}

async function serve(host: string, handler: (req: IncomingMessage, res: ServerResponse) => void = (_q, res) => res.end("internal secret")): Promise<Counted> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(0, host, resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

let v4: Counted;
let v6: Counted;
let opened: Counted;
let guard: ReturnType<typeof createGuardedFetch>;
let guardDns: ReturnType<typeof createGuardedFetch>;
const P = () => v4.port;
const Q = () => v6.port;
const O = () => opened.port;

/** An attacker's DNS: names answering private addresses (the guard must judge every answer). */
const ATTACKER_DNS: Record<string, [string, number][]> = {
  "loopback.attacker.test": [["127.0.0.1", 4]],
  "mapped.attacker.test": [["::ffff:127.0.0.1", 6]],
  "v6.attacker.test": [["::1", 6]],
  "public-then-loopback.attacker.test": [
    ["93.184.215.14", 4],
    ["127.0.0.1", 4],
  ],
  "loopback-last.attacker.test": [
    ["8.8.8.8", 4],
    ["2001:4860:4860::8888", 6],
    ["127.0.0.1", 4],
  ],
  "zero.attacker.test": [["0.0.0.0", 4]],
  "private.attacker.test": [["10.1.2.3", 4]],
  "metadata.attacker.test": [["169.254.169.254", 4]],
  "nat64.attacker.test": [["64:ff9b::7f00:1", 6]],
};
const attackerResolve: Resolve = async (name) => (ATTACKER_DNS[name] ?? []).map(([address, family]) => ({ address, family }));

beforeAll(async () => {
  v4 = await serve("127.0.0.1");
  v6 = await serve("::1");
  opened = await serve("127.0.0.1", (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/redirect") {
      res.writeHead(Number(url.searchParams.get("status") ?? 302), { location: url.searchParams.get("to") ?? "/" });
      res.end("moving");
    } else if (url.pathname === "/loop") {
      res.writeHead(302, { location: "/loop" });
      res.end();
    } else {
      res.end(`opened ${url.pathname}`);
    }
  });
  guard = createGuardedFetch({ allowPrivate: [`127.0.0.1:${opened.port}`] });
  guardDns = createGuardedFetch({ allowPrivate: [`127.0.0.1:${opened.port}`], resolve: attackerResolve });
});

afterAll(async () => {
  await Promise.all([guard.close(), guardDns.close()]);
  for (const s of [v4, v6, opened]) {
    s.server.closeAllConnections();
    await new Promise((r) => s.server.close(r));
  }
});

type Case = [what: string, url: () => string, reason: string];

/** Address encodings of the never-reached servers (and other forbidden ranges). */
const ENCODINGS: Case[] = [
  ["loopback as 127.0.0.1", () => `http://127.0.0.1:${P()}/`, "address_not_allowed"],
  ["loopback via short form 127.1", () => `http://127.1:${P()}/`, "address_not_allowed"],
  ["loopback via decimal 2130706433", () => `http://2130706433:${P()}/`, "address_not_allowed"],
  ["loopback via hex 0x7f000001", () => `http://0x7f000001:${P()}/`, "address_not_allowed"],
  ["loopback via dotted hex 0x7f.0x0.0x0.0x1", () => `http://0x7f.0x0.0x0.0x1:${P()}/`, "address_not_allowed"],
  ["loopback via hex short form 0x7f.1", () => `http://0x7f.1:${P()}/`, "address_not_allowed"],
  ["loopback via octal 0177.0.0.1", () => `http://0177.0.0.1:${P()}/`, "address_not_allowed"],
  ["loopback via octal 017700000001", () => `http://017700000001:${P()}/`, "address_not_allowed"],
  ["loopback via zero-padded 127.000.000.001", () => `http://127.000.000.001:${P()}/`, "address_not_allowed"],
  ["loopback via a trailing dot 127.0.0.1.", () => `http://127.0.0.1.:${P()}/`, "address_not_allowed"],
  ["loopback via percent-encoding %31%32%37.0.0.1", () => `http://%31%32%37.0.0.1:${P()}/`, "address_not_allowed"],
  ["loopback via fullwidth digits", () => `http://１２７.０.０.１:${P()}/`, "address_not_allowed"],
  ["loopback via ideographic full stops", () => `http://127。0。0。1:${P()}/`, "address_not_allowed"],
  ["another loopback address 127.8.9.10", () => `http://127.8.9.10:${P()}/`, "address_not_allowed"],
  ["this host via unspecified 0.0.0.0", () => `http://0.0.0.0:${P()}/`, "address_not_allowed"],
  ["this host via 0", () => `http://0:${P()}/`, "address_not_allowed"],
  ["loopback via the name localhost", () => `http://localhost:${P()}/`, "address_not_allowed"],
  ["loopback via LOCALHOST. (case and trailing dot)", () => `http://LOCALHOST.:${P()}/`, "address_not_allowed"],
  ["loopback via userinfo naming the opened host", () => `http://127.0.0.1:${O()}@127.0.0.1:${P()}/`, "address_not_allowed"],
  ["IPv6 loopback via [::1]", () => `http://[::1]:${Q()}/`, "address_not_allowed"],
  ["IPv6 loopback via [0:0:0:0:0:0:0:1]", () => `http://[0:0:0:0:0:0:0:1]:${Q()}/`, "address_not_allowed"],
  ["this host via IPv6 unspecified [::]", () => `http://[::]:${Q()}/`, "address_not_allowed"],
  ["loopback via IPv4-mapped ::ffff:127.0.0.1", () => `http://[::ffff:127.0.0.1]:${P()}/`, "address_not_allowed"],
  ["loopback via IPv4-mapped ::ffff:7f00:1", () => `http://[::ffff:7f00:1]:${P()}/`, "address_not_allowed"],
  ["loopback via IPv4-mapped long form", () => `http://[0:0:0:0:0:ffff:7f00:1]:${P()}/`, "address_not_allowed"],
  ["this host via IPv4-mapped ::ffff:0.0.0.0", () => `http://[::ffff:0.0.0.0]:${P()}/`, "address_not_allowed"],
  ["loopback via IPv4-translated ::ffff:0:7f00:1", () => `http://[::ffff:0:7f00:1]:${P()}/`, "address_not_allowed"],
  ["loopback via IPv4-compatible ::127.0.0.1", () => `http://[::127.0.0.1]:${P()}/`, "address_not_allowed"],
  ["loopback via NAT64 64:ff9b::127.0.0.1", () => `http://[64:ff9b::127.0.0.1]:${P()}/`, "address_not_allowed"],
  ["loopback via local-use NAT64 64:ff9b:1::7f00:1", () => `http://[64:ff9b:1::7f00:1]:${P()}/`, "address_not_allowed"],
  ["loopback via 6to4 2002:7f00:1::1", () => `http://[2002:7f00:1::1]:${P()}/`, "address_not_allowed"],
  ["a private network via 6to4 2002:a00:1::1", () => `http://[2002:a00:1::1]:${P()}/`, "address_not_allowed"],
  ["a Teredo tunnel 2001:0:4136:e378:8000:63bf:80ff:fffe", () => `http://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${P()}/`, "address_not_allowed"],
  ["link-local via an IPv6 zone id", () => `http://[fe80::1%25lo]:${Q()}/`, "invalid_url"],
  ["loopback via an IPv6 zone id", () => `http://[::1%25lo]:${Q()}/`, "invalid_url"],
  ["loopback via a bracketed IPv4", () => `http://[127.0.0.1]:${P()}/`, "invalid_url"],
  ["RFC 1918 10.0.0.1", () => "http://10.0.0.1/", "address_not_allowed"],
  ["RFC 1918 172.16.0.1", () => "http://172.16.0.1/", "address_not_allowed"],
  ["RFC 1918 192.168.0.1", () => "http://192.168.0.1/", "address_not_allowed"],
  ["CGNAT 100.64.0.1", () => "http://100.64.0.1/", "address_not_allowed"],
  ["link-local 169.254.1.1", () => "http://169.254.1.1/", "address_not_allowed"],
  ["multicast 224.0.0.1", () => "http://224.0.0.1/", "address_not_allowed"],
  ["broadcast 255.255.255.255", () => "http://255.255.255.255/", "address_not_allowed"],
  ["reserved 240.0.0.1", () => "http://240.0.0.1/", "address_not_allowed"],
  ["benchmarking 198.18.0.1", () => "http://198.18.0.1/", "address_not_allowed"],
  ["documentation 192.0.2.1", () => "http://192.0.2.1/", "address_not_allowed"],
  ["IPv6 unique local fd12:3456::1", () => "http://[fd12:3456::1]/", "address_not_allowed"],
  ["IPv6 link-local fe80::1", () => "http://[fe80::1]/", "address_not_allowed"],
  ["IPv6 multicast ff02::1", () => "http://[ff02::1]/", "address_not_allowed"],
  ["IPv6 site-local fec0::1", () => "http://[fec0::1]/", "address_not_allowed"],
  ["IPv6 documentation 2001:db8::1", () => "http://[2001:db8::1]/", "address_not_allowed"],
  ["cloud metadata 169.254.169.254", () => "http://169.254.169.254/latest/meta-data/", "address_not_allowed"],
  ["cloud metadata via IPv4-mapped ::ffff:a9fe:a9fe", () => "http://[::ffff:a9fe:a9fe]/latest/meta-data/", "address_not_allowed"],
  ["cloud metadata via decimal 2852039166", () => "http://2852039166/latest/meta-data/", "address_not_allowed"],
  ["cloud metadata by name metadata.google.internal", () => "http://metadata.google.internal/computeMetadata/v1/", "address_not_allowed"],
  ["AWS IPv6 metadata fd00:ec2::254", () => "http://[fd00:ec2::254]/latest/meta-data/", "address_not_allowed"],
  ["Alibaba metadata 100.100.100.200", () => "http://100.100.100.200/latest/meta-data/", "address_not_allowed"],
  ["the opened server under another name (localhost)", () => `http://localhost:${O()}/`, "address_not_allowed"],
  ["a non-http scheme", () => `ftp://127.0.0.1:${P()}/`, "scheme_not_allowed"],
];

/** Names an attacker's DNS answers with private addresses (injected resolver). */
const DNS_CASES: Case[] = [
  ["loopback via a name that resolves to 127.0.0.1", () => `http://loopback.attacker.test:${P()}/`, "address_not_allowed"],
  ["loopback via a name that resolves to ::ffff:127.0.0.1", () => `http://mapped.attacker.test:${P()}/`, "address_not_allowed"],
  ["IPv6 loopback via a name that resolves to ::1", () => `http://v6.attacker.test:${Q()}/`, "address_not_allowed"],
  ["loopback via a name that answers a public address first, 127.0.0.1 second", () => `http://public-then-loopback.attacker.test:${P()}/`, "address_not_allowed"],
  ["loopback via a name whose last of three answers is 127.0.0.1", () => `http://loopback-last.attacker.test:${P()}/`, "address_not_allowed"],
  ["this host via a name that resolves to 0.0.0.0", () => `http://zero.attacker.test:${P()}/`, "address_not_allowed"],
  ["a private network via a name that resolves to 10.1.2.3", () => "http://private.attacker.test/", "address_not_allowed"],
  ["cloud metadata via a name that resolves to 169.254.169.254", () => "http://metadata.attacker.test/latest/meta-data/", "address_not_allowed"],
  ["loopback via a name that resolves to NAT64 64:ff9b::7f00:1", () => `http://nat64.attacker.test:${P()}/`, "address_not_allowed"],
];

/** Redirects from the opened server to places the attacker may not go. */
const REDIRECTS: Case[] = [
  ["loopback by redirect to 127.0.0.1", () => `http://127.0.0.1:${P()}/`, "address_not_allowed"],
  ["loopback by redirect to ::ffff:7f00:1", () => `http://[::ffff:7f00:1]:${P()}/`, "address_not_allowed"],
  ["loopback by redirect to decimal 2130706433", () => `http://2130706433:${P()}/`, "address_not_allowed"],
  ["loopback by redirect to localhost", () => `http://localhost:${P()}/`, "address_not_allowed"],
  ["IPv6 loopback by redirect to [::1]", () => `http://[::1]:${Q()}/`, "address_not_allowed"],
  ["cloud metadata by redirect", () => "http://169.254.169.254/latest/meta-data/iam/", "address_not_allowed"],
  ["loopback by a redirect chain through the opened server", () => `http://127.0.0.1:${O()}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${P()}/`)}`, "address_not_allowed"],
  ["a local file by redirect to file:", () => "file:///etc/passwd", "invalid_redirect"],
];

const redirectVia = (to: string, status = 302) => `http://127.0.0.1:${O()}/redirect?status=${status}&to=${encodeURIComponent(to)}`;

describe('outbound requests: address encodings (docs/security.md "Outbound requests")', () => {
  it.each(ENCODINGS)("an attacker cannot reach %s", async (_what, url, reason) => {
    await expect(guard(url())).rejects.toMatchObject({ reason });
  });

  it.each(DNS_CASES)("an attacker cannot reach %s", async (_what, url, reason) => {
    await expect(guardDns(url())).rejects.toMatchObject({ reason });
  });

  it.each(REDIRECTS)("an attacker cannot reach %s from an opened host", async (_what, to, reason) => {
    await expect(guard(redirectVia(to()))).rejects.toMatchObject({ reason });
  });

  it("an attacker cannot reach loopback by a 307 that repeats a POST and its body", async () => {
    await expect(guard(redirectVia(`http://127.0.0.1:${P()}/`, 307), { method: "POST", body: "secret=1" })).rejects.toMatchObject({ reason: "address_not_allowed" });
  });

  it("an attacker cannot reach cloud metadata even where the operator opened it", async () => {
    const careless = createGuardedFetch({ allowPrivate: ["169.254.169.254", "metadata.google.internal", "[fd00:ec2::254]"] });
    try {
      for (const url of ["http://169.254.169.254/", "http://metadata.google.internal/", "http://[fd00:ec2::254]/"]) {
        await expect(careless(url), url).rejects.toMatchObject({ reason: "address_not_allowed" });
      }
    } finally {
      await careless.close();
    }
  });

  it("an attacker cannot loop redirects forever: at most 5 hops are followed", async () => {
    const before = opened.hits.length;
    await expect(guard(`http://127.0.0.1:${O()}/loop`)).rejects.toMatchObject({ reason: "too_many_redirects" });
    expect(opened.hits.length - before).toBe(6);
  });

  it("a refusal tells the tenant what to do in the product's words, never the remote body", async () => {
    const err = await guard(`http://127.0.0.1:${P()}/`).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "forbidden", reason: "address_not_allowed", details: { host: "127.0.0.1", port: P() } });
    expect((err as Error).message).toContain("OUTBOUND_ALLOW_PRIVATE");
    expect((err as Error).message).not.toContain("internal secret");
    const byName = await guardDns(`http://loopback.attacker.test:${P()}/`).catch((e: unknown) => e);
    // For a name, the message does not reveal which private address it resolved to.
    expect((byName as Error).message).toContain("loopback.attacker.test");
    expect((byName as Error).message).not.toContain("127.0.0.1");
  });
});

describe("outbound requests: the connection layer on its own", () => {
  it("an attacker who slips past the URL check still cannot connect: the socket layer judges literals and every DNS answer", async () => {
    const agent = createGuardedAgent({ openHosts: () => [], resolve: attackerResolve });
    try {
      for (const url of [
        `http://127.0.0.1:${P()}/`,
        `http://[::1]:${Q()}/`,
        `http://[::ffff:7f00:1]:${P()}/`,
        `http://0.0.0.0:${P()}/`,
        `http://loopback.attacker.test:${P()}/`,
        `http://loopback-last.attacker.test:${P()}/`,
      ]) {
        const err = await undiciFetch(url, { dispatcher: agent }).catch((e: unknown) => e);
        expect((err as { cause?: unknown }).cause, url).toMatchObject({ reason: "address_not_allowed" });
      }
    } finally {
      await agent.close();
    }
  });
});

describe("outbound requests: DNS rebinding", () => {
  it("an attacker cannot rebind a name between check and connect: the socket goes to the address that was checked", async () => {
    let calls = 0;
    const rebinding: Resolve = async () => (++calls === 1 ? [{ address: "93.184.215.14", family: 4 }] : [{ address: "127.0.0.1", family: 4 }]);
    const g = createGuardedFetch({ resolve: rebinding });
    try {
      // First connection: the public answer is checked and is the one dialled (it cannot be our loopback server).
      const first = await g(`http://rebind.attacker.test:${P()}/`, { signal: AbortSignal.timeout(3_000) }).catch((e: unknown) => e);
      expect(first).toBeInstanceOf(Error);
      expect(calls).toBe(1);
      const cause = (first as { cause?: { address?: string } }).cause;
      if (cause?.address !== undefined) expect(cause.address).toBe("93.184.215.14");
      // Second connection: the name now answers loopback, and that answer is judged too.
      await expect(g(`http://rebind.attacker.test:${P()}/`)).rejects.toMatchObject({ reason: "address_not_allowed" });
      expect(calls).toBe(2);
    } finally {
      await g.close();
    }
  });
});

describe("outbound requests: what the operator opened", () => {
  it("an operator-opened host:port is reachable, and redirects within it are followed", async () => {
    const res = await guard(`http://127.0.0.1:${O()}/hello`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("opened /hello");
    const hopped = await guard(redirectVia(`http://127.0.0.1:${O()}/after`));
    expect(await hopped.text()).toBe("opened /after");
    expect(hopped.url).toBe(`http://127.0.0.1:${O()}/after`);
  });

  it("an attacker's cross-origin redirect does not carry the caller's credentials; a 303 turns a POST into a GET without body", async () => {
    const echo = await serve("127.0.0.1", (req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c;
      });
      req.on("end", () => res.end(JSON.stringify({ method: req.method, authorization: req.headers.authorization ?? null, cookie: req.headers.cookie ?? null, body })));
    });
    const g = createGuardedFetch({ allowPrivate: [`127.0.0.1:${O()}`, `127.0.0.1:${echo.port}`] });
    try {
      const init = { method: "POST", body: "payload", headers: { authorization: "Bearer sk-provider", cookie: "s=1" } };
      const moved = await g(redirectVia(`http://127.0.0.1:${echo.port}/`, 307), init);
      expect(await moved.json()).toEqual({ method: "POST", authorization: null, cookie: null, body: "payload" });
      const seeOther = await g(redirectVia(`http://127.0.0.1:${echo.port}/`, 303), init);
      expect(await seeOther.json()).toEqual({ method: "GET", authorization: null, cookie: null, body: "" });
    } finally {
      await g.close();
      echo.server.closeAllConnections();
      await new Promise((r) => echo.server.close(r));
    }
  });

  it("redirect: manual returns the redirect itself, for callers that follow by hand", async () => {
    const res = await guard(redirectVia(`http://127.0.0.1:${P()}/`), { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`http://127.0.0.1:${P()}/`);
  });

  it("an attacker cannot reach another port of an opened address", async () => {
    await expect(guard(`http://127.0.0.1:${P()}/`)).rejects.toMatchObject({ reason: "address_not_allowed" });
  });

  it("the default client opens hosts only as the operator does (OUTBOUND_ALLOW_PRIVATE), and closes them again", async () => {
    const url = `http://127.0.0.1:${O()}/default`;
    await expect(guardedFetch(url)).rejects.toMatchObject({ reason: "address_not_allowed" });
    const close = openHostsForTests([`127.0.0.1:${O()}`]);
    try {
      expect(await (await guardedFetch(url)).text()).toBe("opened /default");
    } finally {
      close();
    }
    await expect(guardedFetch(url)).rejects.toMatchObject({ reason: "address_not_allowed" });
  });
});

describe("outbound requests: counts", () => {
  it("every encoding tried was refused and the never-reached servers counted zero hits", () => {
    const tried = ENCODINGS.length + DNS_CASES.length + REDIRECTS.length;
    expect(tried).toBeGreaterThanOrEqual(75);
    expect(v4.hits).toEqual([]);
    expect(v6.hits).toEqual([]);
  });
});
