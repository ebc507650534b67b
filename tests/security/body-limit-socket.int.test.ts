import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../http/client";
import { startServer, type TestServer } from "../http/server";

/**
 * A body over a route's limit leaves the connection usable (docs/security.md "Input
 * limits"): the 413 is answered, and the next request on the same keep-alive socket gets
 * its own answer, whether the body declared its length or came chunked. Checked with a raw
 * socket, so no client pool can hide a broken connection by opening a new one.
 */

/** What came back on one socket: the raw bytes, and whether the server closed it. */
interface Exchange {
  text: string;
  closed: boolean;
}

/**
 * Writes `parts` in order on one connection, then reads until `answers` whole responses
 * came (each ends with the last chunk of its chunked body), the server closes the
 * connection, or `timeoutMs` pass.
 */
function exchange(url: string, parts: (string | Buffer)[], answers: number, timeoutMs = 30_000): Promise<Exchange> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve) => {
    const sock = connect(Number(port), hostname);
    const got: Buffer[] = [];
    let closed = false;
    const finish = () => {
      clearTimeout(timer);
      sock.destroy();
      resolve({ text: Buffer.concat(got).toString("latin1"), closed });
    };
    const timer = setTimeout(finish, timeoutMs);
    sock.on("data", (d: Buffer) => {
      got.push(d);
      const text = Buffer.concat(got).toString("latin1");
      if (statuses(text).length >= answers && text.endsWith("\r\n0\r\n\r\n")) finish();
    });
    sock.on("error", () => undefined);
    sock.on("close", () => {
      closed = true;
      finish();
    });
    sock.on("connect", async () => {
      for (const p of parts) if (!sock.write(p)) await new Promise((r) => sock.once("drain", r));
    });
  });
}

/** The status lines of the responses in `text`, in order. */
const statuses = (text: string) => [...text.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((m) => Number(m[1]));

/** `n` bytes of body as HTTP/1.1 chunks of 64 KiB, then the last chunk. */
function chunked(n: number): Buffer[] {
  const out: Buffer[] = [];
  const piece = Buffer.alloc(65_536, "x");
  for (let left = n; left > 0; left -= piece.length) {
    const c = left >= piece.length ? piece : piece.subarray(0, left);
    out.push(Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from("\r\n"));
  }
  out.push(Buffer.from("0\r\n\r\n"));
  return out;
}

describe("a body over the limit on a keep-alive connection", () => {
  let s: TestServer;
  let cookie = "";
  const health = "GET /api/health HTTP/1.1\r\nHost: test\r\n\r\n";
  beforeAll(async () => {
    s = await startServer();
    const [alice] = s.users;
    if (!alice) throw new Error("seeded users missing");
    cookie = (await signIn(s.url, alice.email, alice.password)).cookie();
  }, 120_000);
  afterAll(async () => s?.stop());

  it("with a declared Content-Length: 413, then the next request on the socket is answered", async () => {
    const body = Buffer.from(JSON.stringify({ name: "x".repeat(6 * 1_048_576) }));
    const head = `POST /api/keys HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nCookie: ${cookie}\r\nContent-Length: ${body.length}\r\n\r\n`;
    const r = await exchange(s.url, [head, body, health], 2);
    expect(statuses(r.text)).toEqual([413, 200]);
    expect(r.text).toContain("limit of 1 MB");
  });

  it("chunked, without a length: 413, then the next request on the socket is answered", async () => {
    const head = `POST /api/keys HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nCookie: ${cookie}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const r = await exchange(s.url, [head, ...chunked(3 * 1_048_576), health], 2);
    expect(statuses(r.text)).toEqual([413, 200]);
    expect(r.text).toContain("limit of 1 MB");
  });

  it("chunked and 20 MB long: 413, then the next request on the socket is answered", async () => {
    const head = `POST /api/keys HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nCookie: ${cookie}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const r = await exchange(s.url, [head, ...chunked(20 * 1_048_576), health], 2);
    expect(statuses(r.text)).toEqual([413, 200]);
  });
});
