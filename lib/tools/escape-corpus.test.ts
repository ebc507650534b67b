import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolDefinition } from "./gateway";
import { httpRequest } from "./http-request";
import { createRunJavascript } from "./run-javascript";
import type { NetworkAccess, ToolRunResult } from "./types";
import { openHostsForTests } from "../net/operator-open-hosts";

/**
 * The escape corpus of the network and JavaScript sandboxes (tools reach
 * nothing they are not given). Every attempt runs through the gateway against real servers on 127.0.0.1 or the
 * real QuickJS wasm, and is asserted refused with its specific reason, or contained (it ran,
 * but reached nothing it should not). The path corpus stays in sandbox.test.ts.
 */

let ws: string;
/** The one allowlisted server, and one that must never be reached. */
let allowed: { server: Server; port: number; hits: string[] };
let forbidden: { server: Server; port: number; hits: string[] };
let network: NetworkAccess;
let closeOpened: () => void = () => {};

async function serve(handler: (url: URL, res: import("node:http").ServerResponse) => void) {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handler(new URL(req.url ?? "/", "http://x"), res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, port: (server.address() as AddressInfo).port, hits };
}

beforeAll(async () => {
  ws = await fs.mkdtemp(path.join(os.tmpdir(), "phyl-escape-"));
  forbidden = await serve((_url, res) => res.end("secret"));
  allowed = await serve((url, res) => {
    if (url.pathname === "/redirect") {
      res.writeHead(302, { location: url.searchParams.get("to") ?? "/" });
      res.end();
    } else if (url.pathname === "/loop") {
      res.writeHead(302, { location: `/loop?n=${Number(url.searchParams.get("n") ?? 0) + 1}` });
      res.end();
    } else if (url.pathname === "/huge") {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(Buffer.alloc(5 * 1024 * 1024, 97));
    } else if (url.pathname === "/slow") {
      res.writeHead(200);
      res.write("partial");
    } else if (url.pathname === "/hang") {
      // never answers
    } else {
      res.end(`allowed ${url.pathname}`);
    }
  });
  network = { allowHosts: [`127.0.0.1:${allowed.port}`], methods: ["GET", "HEAD"], maxResponseBytes: 64 * 1024, timeoutMs: 1_000 };
  // The operator opens the allowlisted server's loopback address (OUTBOUND_ALLOW_PRIVATE), not the other one.
  closeOpened = openHostsForTests([`127.0.0.1:${allowed.port}`]);
});

afterAll(async () => {
  closeOpened();
  expect(forbidden.hits).toEqual([]);
  for (const s of [allowed, forbidden]) {
    s.server.closeAllConnections();
    await new Promise((r) => s.server.close(r));
  }
  await fs.rm(ws, { recursive: true, force: true });
});

const A = () => `127.0.0.1:${allowed.port}`;
const B = () => `127.0.0.1:${forbidden.port}`;

type NetAttempt = [name: string, input: () => Record<string, unknown>, reason: string, net?: () => NetworkAccess | null];

/** Network attempts that must be refused, with the reason the gateway reports. */
const networkRefusals: NetAttempt[] = [
  ["disallowed host", () => ({ url: "http://evil.invalid/" }), "host_not_allowed"],
  ["allowed host, other port", () => ({ url: `http://${B()}/` }), "port_not_allowed"],
  ["allowed host, default port", () => ({ url: "http://127.0.0.1/" }), "port_not_allowed"],
  ["allowed host, https default port", () => ({ url: "https://127.0.0.1/" }), "port_not_allowed"],
  ["userinfo naming the allowed host", () => ({ url: `http://${A()}@${B()}/` }), "userinfo_not_allowed"],
  ["user and password", () => ({ url: `http://user:pass@${A()}/` }), "userinfo_not_allowed"],
  ["empty userinfo with a colon", () => ({ url: `http://:@${B()}/` }), "port_not_allowed"],
  ["fragment hiding the real host", () => ({ url: `http://${B()}#@${A()}/` }), "port_not_allowed"],
  ["query hiding the real host", () => ({ url: `http://${B()}?@${A()}/` }), "port_not_allowed"],
  ["decimal IPv4 of another port", () => ({ url: `http://2130706433:${forbidden.port}/` }), "port_not_allowed"],
  ["hex IPv4 of another port", () => ({ url: `http://0x7f000001:${forbidden.port}/` }), "port_not_allowed"],
  ["octal IPv4 of another port", () => ({ url: `http://0177.0.0.1:${forbidden.port}/` }), "port_not_allowed"],
  ["short IPv4 of another port", () => ({ url: `http://127.1:${forbidden.port}/` }), "port_not_allowed"],
  ["decimal IPv4 of another loopback address", () => ({ url: `http://2130706434:${allowed.port}/` }), "host_not_allowed"],
  ["IPv6 loopback", () => ({ url: `http://[::1]:${allowed.port}/` }), "host_not_allowed"],
  ["IPv6 loopback, long form", () => ({ url: `http://[0:0:0:0:0:0:0:1]:${allowed.port}/` }), "host_not_allowed"],
  ["IPv4-mapped IPv6", () => ({ url: `http://[::ffff:127.0.0.1]:${allowed.port}/` }), "host_not_allowed"],
  ["IPv4-mapped IPv6 in hex", () => ({ url: `http://[::ffff:7f00:1]:${allowed.port}/` }), "host_not_allowed"],
  ["localhost by name (names are matched, not addresses)", () => ({ url: `http://localhost:${allowed.port}/` }), "host_not_allowed"],
  ["allowed address as a prefix of another name", () => ({ url: `http://127.0.0.1.nip.io:${allowed.port}/` }), "host_not_allowed"],
  ["percent-encoded dot before another port", () => ({ url: `http://127.0.0.1%2e:${forbidden.port}/` }), "port_not_allowed"],
  ["redirect to another port", () => ({ url: `http://${A()}/redirect?to=${encodeURIComponent(`http://${B()}/`)}` }), "port_not_allowed"],
  ["redirect to a decimal IPv4 of another port", () => ({ url: `http://${A()}/redirect?to=${encodeURIComponent(`http://2130706433:${forbidden.port}/`)}` }), "port_not_allowed"],
  ["redirect to file:", () => ({ url: `http://${A()}/redirect?to=${encodeURIComponent("file:///etc/passwd")}` }), "scheme_not_allowed"],
  ["redirect to data:", () => ({ url: `http://${A()}/redirect?to=${encodeURIComponent("data:text/plain,hi")}` }), "scheme_not_allowed"],
  ["redirect adding userinfo", () => ({ url: `http://${A()}/redirect?to=${encodeURIComponent(`http://x@${A()}/`)}` }), "userinfo_not_allowed"],
  ["redirect loop", () => ({ url: `http://${A()}/loop` }), "too_many_redirects"],
  ["file:", () => ({ url: "file:///etc/passwd" }), "scheme_not_allowed"],
  ["data:", () => ({ url: "data:text/plain;base64,aGk=" }), "scheme_not_allowed"],
  ["javascript:", () => ({ url: "javascript:alert(1)" }), "scheme_not_allowed"],
  ["ftp:", () => ({ url: `ftp://${A()}/` }), "scheme_not_allowed"],
  ["ws:", () => ({ url: `ws://${A()}/` }), "scheme_not_allowed"],
  ["relative URL", () => ({ url: "/etc/passwd" }), "invalid_url"],
  ["slow body past the timeout", () => ({ url: `http://${A()}/slow` }), "network_timeout"],
  ["no answer past the timeout", () => ({ url: `http://${A()}/hang` }), "network_timeout"],
  ["disallowed method", () => ({ url: `http://${A()}/`, method: "DELETE" }), "method_not_allowed"],
  ["POST when only GET and HEAD are allowed", () => ({ url: `http://${A()}/`, method: "POST", body: "x" }), "method_not_allowed"],
  ["CRLF in a header value", () => ({ url: `http://${A()}/`, headers: { "X-A": `1\r\nHost: ${B()}` } }), "invalid_header"],
  ["LF in a header value", () => ({ url: `http://${A()}/`, headers: { "X-A": "1\nX-B: 2" } }), "invalid_header"],
  ["Host header", () => ({ url: `http://${A()}/`, headers: { Host: B() } }), "header_not_allowed"],
  ["Transfer-Encoding header", () => ({ url: `http://${A()}/`, headers: { "Transfer-Encoding": "chunked" } }), "header_not_allowed"],
  ["Content-Length header", () => ({ url: `http://${A()}/`, headers: { "content-length": "0" } }), "header_not_allowed"],
  ["Connection header", () => ({ url: `http://${A()}/`, headers: { Connection: "upgrade" } }), "header_not_allowed"],
  ["header name with a colon", () => ({ url: `http://${A()}/`, headers: { "X-A: 1\r\nHost": "x" } }), "header_not_allowed"],
  ["no network allowlist", () => ({ url: `http://${A()}/` }), "network_off", () => null],
  ["an empty allowlist", () => ({ url: `http://${A()}/` }), "network_off", () => ({ ...network, allowHosts: [] })],
  ["wildcard entry against an IP", () => ({ url: `http://${A()}/` }), "host_not_allowed", () => ({ ...network, allowHosts: [`*.0.0.1:${allowed.port}`] })],
  ["body on a GET", () => ({ url: `http://${A()}/`, body: "smuggled" }), "body_not_allowed"],
  ["too many headers", () => ({ url: `http://${A()}/`, headers: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`x-${i}`, "1"])) }), "invalid_input"],
];

function fetchWith(input: Record<string, unknown>, net: NetworkAccess | null = network): Promise<ToolRunResult> {
  return runToolDefinition(httpRequest, input, { workspaceDir: ws, ...(net ? { network: net } : {}) });
}

describe("network escape corpus", () => {
  it("has at least 25 refusals", () => {
    expect(networkRefusals.length).toBeGreaterThanOrEqual(25);
  });

  it.each(networkRefusals)("refuses: %s", async (_name, input, reason, net) => {
    const r = await fetchWith(input(), net ? net() : network);
    expect(r.status).toBe("error");
    expect(r.errorCode, r.output).toBe(reason);
  });

  it("contains: an oversized response is cut at maxResponseBytes", async () => {
    const r = await fetchWith({ url: `http://${A()}/huge` });
    const out = JSON.parse(r.output);
    expect(out).toMatchObject({ truncated: true, bytes: 64 * 1024 });
    expect(out.body).toHaveLength(64 * 1024);
  });

  it("contains: a backslash authority is parsed like a browser (it stays on the allowed host)", async () => {
    const r = await fetchWith({ url: `http:\\\\${A()}\\@${B()}/` });
    expect(JSON.parse(r.output)).toMatchObject({ status: 200, url: `http://${A()}/@${B()}/` });
  });

  it("contains: a redirect within the allowlist is followed", async () => {
    const r = await fetchWith({ url: `http://${A()}/redirect?to=/inside` });
    expect(JSON.parse(r.output)).toMatchObject({ url: `http://${A()}/inside`, body: "allowed /inside" });
  });
});

/**
 * The sandbox with an 8 MB memory limit; runaway scripts meet a 300 ms deadline, the rest a
 * roomy 10 s: exhausting the host stack and starting a fresh instance took 2.3 s at load 3 on
 * 2 cores, and past 3 s on a busier machine it read as a timeout.
 */
const js = createRunJavascript({ timeoutMs: 10_000, memoryBytes: 8 * 1024 * 1024 });
const jsShort = createRunJavascript({ timeoutMs: 300, memoryBytes: 8 * 1024 * 1024 });
const runJs = (code: string, tool = js) => runToolDefinition(tool, { code }, { workspaceDir: ws });
const resultOf = async (code: string) => {
  const r = await runJs(code);
  expect(r.status, r.output).toBe("success");
  return JSON.parse(r.output).result;
};

type JsAttempt = [name: string, code: string, reason: string, message: RegExp];

/** Scripts that must fail, each with its reason and a message naming what happened. */
const jsRefusals: JsAttempt[] = [
  ["require", "require('fs').readFileSync('/etc/passwd', 'utf8')", "js_error", /ReferenceError: 'require' is not defined/],
  ["process.env", "process.env", "js_error", /ReferenceError: 'process' is not defined/],
  ["dynamic import of a Node module", "import('node:fs')", "js_error", /Error/],
  ["dynamic import of QuickJS std", "import('std').then((std) => std.getenv('HOME'))", "js_error", /Error/],
  ["static import (scripts are not modules)", "import * as os from 'os'; os.getcwd()", "js_error", /SyntaxError/],
  ["constructor chain to a host Function", "globalThis.constructor.constructor('return process')()", "js_error", /ReferenceError: 'process' is not defined/],
  ["Function constructor reaching require", "Function('return require')()('child_process')", "js_error", /ReferenceError: 'require' is not defined/],
  ["console function's constructor", "console.log.constructor('return process.mainModule')()", "js_error", /ReferenceError: 'process' is not defined/],
  ["eval reaching the host", "eval('process.exit(1)')", "js_error", /ReferenceError: 'process' is not defined/],
  ["std module global", "std.loadFile('/etc/passwd')", "js_error", /ReferenceError: 'std' is not defined/],
  ["os module global", "os.exec(['id'])", "js_error", /ReferenceError: 'os' is not defined/],
  ["fetch", "fetch('http://127.0.0.1/')", "js_error", /ReferenceError: 'fetch' is not defined/],
  ["timers", "new Promise((r) => setTimeout(r, 10))", "js_error", /ReferenceError: 'setTimeout' is not defined/],
  ["a promise that never settles", "new Promise(() => {})", "js_error", /never settled/],
  ["infinite loop", "while (true) {}", "js_timeout", /longer than 300 ms/],
  ["infinite loop that catches the interrupt", "for (;;) { try { while (true) {} } catch (e) {} }", "js_timeout", /longer than 300 ms/],
  ["infinite loop in finally", "try { while (true) {} } finally { while (true) {} }", "js_timeout", /longer than 300 ms/],
  ["endless microtasks", "(async () => { for (;;) await null })()", "js_timeout", /longer than 300 ms/],
  ["endless toJSON of the result", "({ toJSON() { for (;;) {} } })", "js_timeout", /longer than 300 ms/],
  ["endless Proxy trap of the result", "new Proxy({}, { ownKeys() { for (;;) {} } })", "js_timeout", /longer than 300 ms/],
  ["memory bomb of strings", "const keep = []; for (;;) keep.push('x'.repeat(4096) + keep.length)", "js_memory_limit", /more than 8 MB/],
  ["memory bomb of typed arrays", "const keep = []; for (;;) keep.push(new Uint8Array(256 * 1024))", "js_memory_limit", /more than 8 MB/],
  ["one huge allocation", "new ArrayBuffer(1024 * 1024 * 1024)", "js_memory_limit", /more than 8 MB/],
  ["deep recursion", "function f(n) { return f(n + 1) + 1 } f(0)", "js_error", /stack overflow/],
  ["deep recursion in native code (JSON of deep nesting)", "let a = []; for (let i = 0; i < 200000; i++) a = [a]; JSON.stringify(a).length", "js_error", /stack overflow/],
  ["a BigInt result", "2n ** 64n", "js_error", /not JSON-serialisable/],
  ["writing the frozen input in strict mode", "'use strict'; input.x = 1", "js_error", /TypeError/],
  ["replacing the console in strict mode", "'use strict'; console.log = () => {}", "js_error", /TypeError/],
];

// The sandbox's own 10 s deadline judges a slow script, not vitest's 5 s: at load 9.5 on 2 cores,
// exhausting the host stack took longer than 5 s.
describe("JavaScript escape corpus", { timeout: 30_000 }, () => {
  it("has at least 25 refusals", () => {
    expect(jsRefusals.length).toBeGreaterThanOrEqual(25);
  });

  it.each(jsRefusals)("refuses: %s", async (_name, code, reason, message) => {
    const r = await runJs(code, reason === "js_timeout" ? jsShort : js);
    expect(r.status).toBe("error");
    expect(r.errorCode, r.output).toBe(reason);
    expect(r.output).toMatch(message);
  });

  it("contains: the global object has no host capability", async () => {
    const names = (await resultOf("Object.getOwnPropertyNames(globalThis)")) as string[];
    for (const host of ["process", "require", "module", "std", "os", "fetch", "setTimeout", "WebAssembly", "Deno", "Bun", "scriptArgs", "print"]) {
      expect(names).not.toContain(host);
    }
  });

  it("contains: sloppy-mode `this` and indirect eval are the sandbox's own global", async () => {
    expect(await resultOf("[typeof (function () { return this })().process, typeof (0, eval)('this').require]")).toEqual(["undefined", "undefined"]);
  });

  it("contains: V8's Error.prepareStackTrace hook has no effect", async () => {
    expect(await resultOf("Error.prepareStackTrace = (e, s) => s[0].getThis(); typeof new Error('x').stack")).toBe("string");
  });

  it("contains: the frozen input ignores writes in sloppy mode", async () => {
    const r = await runToolDefinition(js, { code: "input.x = 2; input = 3; delete input.x; input", input: { x: 1 } }, { workspaceDir: ws });
    expect(JSON.parse(r.output).result).toEqual({ x: 1 });
  });

  it("contains: a huge result is capped by the gateway", async () => {
    const r = await runToolDefinition(js, { code: "'x'.repeat(1000000)" }, { workspaceDir: ws });
    expect(r.status).toBe("success");
    expect(r.sizeChars).toBeGreaterThan(1_000_000);
    expect(r.output.length).toBeLessThan(200_100);
    expect(r.output).toMatch(/…\[output truncated: showing 200000 of \d+ chars\]$/);
  });

  it("contains: a flood of console lines is capped at 200", async () => {
    const r = await runToolDefinition(js, { code: "for (let i = 0; i < 5000; i++) console.log(i); 0" }, { workspaceDir: ws });
    expect(JSON.parse(r.output).logs).toHaveLength(200);
  });

  it("contains: prototype pollution does not leak into the next call", async () => {
    await resultOf("Object.prototype.isAdmin = true; Array.prototype.map = null; JSON.parse = () => 'pwned'; 0");
    expect(await resultOf("[({}).isAdmin, typeof [].map, JSON.parse('1')]")).toEqual([null, "function", 1]);
  });

  it("contains: no state is shared between calls", async () => {
    await resultOf("globalThis.secret = 'left behind'; var also = 1; 0");
    expect(await resultOf("[typeof secret, typeof also]")).toEqual(["undefined", "undefined"]);
  });

  it("contains: after a crash of the instance (host stack exhausted), the next call works", async () => {
    expect((await runJs("let a = []; for (let i = 0; i < 200000; i++) a = [a]; JSON.stringify(a)")).errorCode).toBe("js_error");
    expect(await resultOf("6 * 7")).toBe(42);
  });
});
