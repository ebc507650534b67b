import { createServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { classifyFailure, sendJudged } from "./fuzz-send";

/**
 * The fuzzer's transport judgement (tests/security/fuzz-send.ts) against a raw TCP server
 * that answers, closes or stays silent on purpose: a hang and a reset are told apart with
 * their codes, and only a GET or HEAD reset before any answer is sent once more.
 */

type Behaviour = "answer" | "close" | "reset" | "silent" | "cut_body";

/** A server that treats the n-th request (from 0) as `plan[n]` says (then "answer"). */
async function server(plan: Behaviour[]): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let n = 0;
  const sockets = new Set<Socket>();
  const srv: Server = createServer((sock) => {
    sockets.add(sock);
    sock.on("close", () => sockets.delete(sock));
    sock.on("error", () => undefined);
    let buf = "";
    sock.on("data", (d) => {
      buf += d.toString("latin1");
      while (buf.includes("\r\n\r\n")) {
        const end = buf.indexOf("\r\n\r\n") + 4;
        const len = Number(/content-length: *(\d+)/i.exec(buf.slice(0, end))?.[1] ?? 0);
        if (buf.length < end + len) return;
        buf = buf.slice(end + len);
        const b = plan[n++] ?? "answer";
        if (b === "answer") sock.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok");
        else if (b === "close") sock.destroy();
        else if (b === "reset") sock.resetAndDestroy();
        else if (b === "cut_body") sock.end("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly ten b", () => sock.destroy());
      }
    });
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const addr = srv.address();
  const port = typeof addr === "object" && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests: () => n,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((r) => srv.close(r));
    },
  };
}

describe("the fuzzer's transport judgement", () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => stop?.());

  it("a GET whose connection is closed before any answer is sent once more, and the close is reported with its code", async () => {
    const s = await server(["close"]);
    stop = s.close;
    const r = await sendJudged("GET", (signal) => fetch(s.url, { signal }), 10_000);
    expect(r.status).toBe(200);
    expect(r.failure).toBeUndefined();
    expect(r.retriedAfter).toMatchObject({ kind: "reset", code: "UND_ERR_SOCKET" });
    expect(s.requests()).toBe(2);
  });

  it("a GET reset twice is a failure with its code, after exactly one retry", async () => {
    const s = await server(["reset", "reset"]);
    stop = s.close;
    const r = await sendJudged("GET", (signal) => fetch(s.url, { signal }), 10_000);
    expect(r.status).toBe(0);
    expect(r.failure).toMatchObject({ kind: "reset", code: "ECONNRESET" });
    expect(r.retriedAfter).toMatchObject({ kind: "reset", code: "ECONNRESET" });
    expect(s.requests()).toBe(2);
  });

  it("a POST reset before any answer is reported, never sent again", async () => {
    const s = await server(["close"]);
    stop = s.close;
    const r = await sendJudged("POST", (signal) => fetch(s.url, { method: "POST", body: "{}", signal }), 10_000);
    expect(r.status).toBe(0);
    expect(r.failure).toMatchObject({ kind: "reset", code: "UND_ERR_SOCKET" });
    expect(r.retriedAfter).toBeUndefined();
    expect(s.requests()).toBe(1);
  });

  it("a GET whose answer is cut after the status line is a failure, not sent again", async () => {
    const s = await server(["cut_body"]);
    stop = s.close;
    const r = await sendJudged("GET", (signal) => fetch(s.url, { signal }), 10_000);
    expect(r.status).toBe(0);
    expect(r.failure?.kind).toBe("reset");
    expect(r.retriedAfter).toBeUndefined();
    expect(s.requests()).toBe(1);
  });

  it("no answer within the time is a hang, not a reset, and is not sent again", async () => {
    const s = await server(["silent"]);
    stop = s.close;
    const r = await sendJudged("GET", (signal) => fetch(s.url, { signal }), 200);
    expect(r.status).toBe(0);
    expect(r.failure).toEqual({ kind: "hang", code: "timeout", message: "no answer within 200 ms" });
    expect(r.retriedAfter).toBeUndefined();
    expect(s.requests()).toBe(1);
  });

  it("names a failure by its cause's code", () => {
    const cause = Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" });
    expect(classifyFailure(new TypeError("fetch failed", { cause }), 1)).toEqual({
      kind: "reset",
      code: "UND_ERR_SOCKET",
      message: "TypeError: fetch failed (cause UND_ERR_SOCKET: other side closed)",
    });
    expect(classifyFailure(new TypeError("fetch failed", { cause: Object.assign(new Error("x"), { code: "UND_ERR_HEADERS_TIMEOUT" }) }), 1).kind).toBe("hang");
    expect(classifyFailure(new TypeError("fetch failed", { cause: Object.assign(new Error("refused"), { code: "ECONNREFUSED" }) }), 1)).toMatchObject({ kind: "error", code: "ECONNREFUSED" });
  });
});
