import { z } from "zod";
import { AppError, isAppError } from "../errors";
import { HttpMethod } from "../flow/schema";
import { guardedFetch } from "../net/guarded-fetch";
import { checkMethod, checkRequestUrl, requireNetwork } from "./network";
import type { NetworkAccess, ToolContext, ToolDefinition } from "./types";

/**
 * `http_request`: one HTTP(S) request to a host the flow allowlists (network is
 * off by default). The flow's allowlist is checked first, then the guarded client
 * (lib/net/guarded-fetch.ts; docs/security.md "Outbound requests") refuses private, local and
 * metadata addresses unless the operator opened the host. Redirects are followed by hand so
 * that every hop is checked again by both; the body is read as a stream and cut at the flow's
 * `maxResponseBytes`.
 */

/** Largest request body, bytes (1 MB). */
export const MAX_REQUEST_BODY_BYTES = 1_048_576;
/** Most request headers a call may set. */
export const MAX_REQUEST_HEADERS = 30;
/** Most redirects followed before giving up. */
export const MAX_REDIRECTS = 5;
/** The tool's wall-clock limit, ms (30 s); the flow's own `timeoutMs` applies within it. */
const TIMEOUT_MS = 30_000;

/**
 * Headers a caller may not set: the framing and routing ones (Host, Content-Length) and the
 * hop-by-hop ones of RFC 9110 7.6.1, which could smuggle a second request or retarget this one.
 */
export const FORBIDDEN_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  "host",
  "content-length",
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "transfer-encoding",
  "te",
  "trailer",
  "upgrade",
  "expect",
]);
/** Headers dropped when a redirect leaves the original origin (credentials must not follow). */
const CREDENTIAL_HEADERS = ["authorization", "cookie"];
/** RFC 9110 token characters: what a header name may contain. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

const Input = z.object({
  url: z.string().min(1).max(8192).describe("Absolute http(s) URL, e.g. https://api.example.com/items?id=3. Its host must be in the flow's network allowlist."),
  method: HttpMethod.default("GET").describe("HTTP method; the flow's settings list the allowed ones (GET and HEAD by default)."),
  headers: z
    .record(z.string(), z.string().max(8192))
    .refine((h) => Object.keys(h).length <= MAX_REQUEST_HEADERS, { message: `at most ${MAX_REQUEST_HEADERS} headers` })
    .optional()
    .describe(
      "Request headers by name. Host, Content-Length and hop-by-hop headers (Connection, Transfer-Encoding...) are not allowed. A workspace secret is written as {{secret:NAME}} in a header value (e.g. Authorization: Bearer {{secret:API_TOKEN}}); it is sent only to the hosts the secret names, and only in headers.",
    ),
  body: z
    .string()
    .refine((s) => Buffer.byteLength(s, "utf8") <= MAX_REQUEST_BODY_BYTES, { message: `must be at most ${MAX_REQUEST_BODY_BYTES} bytes (1 MB) of UTF-8` })
    .optional()
    .describe("Request body as text (for POST, PUT, PATCH, DELETE), at most 1 MB."),
});

const Output = z.object({
  /** The URL of the last response (after redirects). */
  url: z.string(),
  status: z.number().int(),
  headers: z.object({ "content-type": z.string().optional(), "content-length": z.string().optional(), location: z.string().optional() }),
  /** The body as UTF-8 text, cut at the flow's maxResponseBytes. */
  body: z.string(),
  truncated: z.boolean(),
  /** Bytes of body read (at most maxResponseBytes). */
  bytes: z.number().int().nonnegative(),
});

type HttpInput = z.infer<typeof Input>;
type HttpOutput = z.infer<typeof Output>;

/**
 * Checks the caller's headers and returns them lower-cased.
 * @throws AppError bad_request / "header_not_allowed" for a forbidden or malformed name,
 *   "invalid_header" for a value with CR, LF or NUL (header smuggling).
 */
function checkHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (!TOKEN.test(name)) throw new AppError("bad_request", "header_not_allowed", `Header name ${JSON.stringify(name)} is not a valid HTTP token; use letters, digits and -.`);
    if (FORBIDDEN_REQUEST_HEADERS.has(lower)) {
      throw new AppError("bad_request", "header_not_allowed", `Header ${name} cannot be set: the HTTP client sets Host and Content-Length itself, and hop-by-hop headers are not allowed. Remove it.`);
    }
    if (/[\r\n\0]/.test(value)) {
      throw new AppError("bad_request", "invalid_header", `Header ${name} has a line break or NUL in its value; header values must be one line.`);
    }
    out[lower] = value;
  }
  return out;
}

/** Reads at most `max` bytes of `body` (then cancels it); a multi-byte character cut at the end is dropped. */
async function readCapped(body: ReadableStream<Uint8Array> | null, max: number): Promise<{ text: string; bytes: number; truncated: boolean }> {
  if (!body) return { text: "", bytes: 0, truncated: false };
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  let text = "";
  let bytes = 0;
  let truncated = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = max - bytes;
      const chunk = value.byteLength > room ? value.subarray(0, room) : value;
      bytes += chunk.byteLength;
      text += decoder.decode(chunk, { stream: true });
      if (value.byteLength > room) {
        truncated = true;
        break;
      }
    }
  } finally {
    if (truncated) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  return { text: truncated ? text : text + decoder.decode(), bytes, truncated };
}

function pickHeaders(h: Headers): HttpOutput["headers"] {
  const out: HttpOutput["headers"] = {};
  for (const name of ["content-type", "content-length", "location"] as const) {
    const v = h.get(name);
    if (v !== null) out[name] = v;
  }
  return out;
}

/** Turns a fetch failure into an AppError that says what happened. */
function fetchError(err: unknown, url: URL, timeout: AbortSignal, network: NetworkAccess): unknown {
  if (isAppError(err)) return err;
  if (timeout.aborted) {
    return new AppError("internal", "network_timeout", `${url.host} did not answer within ${network.timeoutMs} ms (the flow's network timeout); try again or raise the timeout in Flow settings.`);
  }
  const cause = (err as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  const why = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
  return new AppError("internal", "network_error", `Request to ${url.host} failed (${why}).`);
}

/**
 * Performs the request (see the module header): checks network, method, headers and URL,
 * follows at most {@link MAX_REDIRECTS} redirects (each re-checked; 303, and 301/302 after a
 * POST, continue as GET without body; credentials are dropped when the origin changes).
 * @throws AppError "network_off", "invalid_url", "scheme_not_allowed", "userinfo_not_allowed",
 *   "host_not_allowed", "port_not_allowed", "address_not_allowed" (lib/net/guarded-fetch.ts),
 *   "method_not_allowed", "header_not_allowed",
 *   "invalid_header", "body_not_allowed", "too_many_redirects", "network_timeout",
 *   "network_error".
 */
async function request(input: HttpInput, ctx: { signal: AbortSignal; network?: NetworkAccess; callKey?: string; secrets?: ToolContext["secrets"] }): Promise<HttpOutput> {
  const network = requireNetwork(ctx.network);
  let method: string = input.method;
  checkMethod(method, network);
  const headers = checkHeaders(input.headers);
  // The same key on every attempt of this call (docs/durability.md "Side effects"): a
  // receiver that honours Idempotency-Key applies a retried call once. A key the call sets
  // itself is kept.
  if (ctx.callKey && headers[IDEMPOTENCY_KEY] === undefined) headers[IDEMPOTENCY_KEY] = ctx.callKey;
  let body = input.body;
  if (body !== undefined && (method === "GET" || method === "HEAD")) {
    throw new AppError("bad_request", "body_not_allowed", `A ${method} request has no body; use POST, PUT or PATCH to send one.`);
  }
  let url = checkRequestUrl(input.url, network);
  const timeout = AbortSignal.timeout(network.timeoutMs);
  const signal = AbortSignal.any([ctx.signal, timeout]);

  for (let hop = 0; ; hop++) {
    let response: Response;
    try {
      response = await guardedFetch(url, { method, headers, body, redirect: "manual", signal, cache: "no-store" });
    } catch (err) {
      throw fetchError(err, url, timeout, network);
    }
    const location = response.headers.get("location");
    if (!REDIRECTS.has(response.status) || location === null) {
      try {
        const read = method === "HEAD" ? { text: "", bytes: 0, truncated: false } : await readCapped(response.body, network.maxResponseBytes);
        return { url: url.href, status: response.status, headers: pickHeaders(response.headers), body: read.text, truncated: read.truncated, bytes: read.bytes };
      } catch (err) {
        throw fetchError(err, url, timeout, network);
      }
    }
    await response.body?.cancel().catch(() => {});
    if (hop >= MAX_REDIRECTS) {
      throw new AppError("unprocessable", "too_many_redirects", `${input.url} redirected more than ${MAX_REDIRECTS} times; request the final URL directly.`);
    }
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new AppError("bad_request", "invalid_url", `${url.host} redirected to ${JSON.stringify(location)}, which is not a valid URL.`);
    }
    // Each hop is judged like a first request: scheme, userinfo, host and port.
    const checked = checkRequestUrl(next.href, network);
    if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
      if (method !== "HEAD") method = "GET";
      body = undefined;
      delete headers["content-type"];
    }
    checkMethod(method, network);
    if (checked.origin !== url.origin) {
      for (const h of CREDENTIAL_HEADERS) delete headers[h];
      // A workspace secret follows a redirect only to a host it names (docs/secrets.md).
      if (ctx.secrets && !ctx.secrets.allowed(checked)) {
        const values = ctx.secrets.values;
        for (const [h, v] of Object.entries(headers)) if (values.some((s) => s !== "" && v.includes(s))) delete headers[h];
      }
    }
    url = checked;
  }
}

/** The request header that names one call across its attempts (lower-cased, as checkHeaders keeps them). */
export const IDEMPOTENCY_KEY = "idempotency-key";

/** Methods RFC 9110 section 9.2.2 defines as idempotent: sending one twice has the effect of once. */
const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "PUT", "DELETE"]);

/** The http_request tool (see the module header). Side effects: POST and friends change remote state. */
export const httpRequest: ToolDefinition<HttpInput, HttpOutput> = {
  name: "http_request",
  version: "1.0.0",
  description:
    "Make an HTTP(S) request to a host in the flow's network allowlist. Returns status, content-type, the body as text (cut at the flow's size limit, with truncated: true) and its size in bytes. Redirects are followed (at most 5). Needs approval unless a policy allows it.",
  input: Input,
  output: Output,
  timeoutMs: TIMEOUT_MS,
  permission: "user",
  sideEffect: true,
  // A GET, HEAD, PUT or DELETE whose outcome is unknown after a crash is sent again without
  // asking; a POST or PATCH is not (its receiver may not honour Idempotency-Key).
  idempotent: (input) => IDEMPOTENT_METHODS.has(input.method),
  // `{{secret:NAME}}` in header values only (docs/secrets.md); the gateway checks the URL's host.
  secretSlots: {
    url: (input) => input.url,
    fill: (input, map) => (input.headers ? { ...input, headers: Object.fromEntries(Object.entries(input.headers).map(([k, v]) => [k, map(v)])) } : input),
  },
  run: (input, ctx) => request(input, ctx),
};
