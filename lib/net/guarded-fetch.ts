import { isIP } from "node:net";
import { fetch as undiciFetch, type RequestInit as UndiciRequestInit } from "undici";
import { isAppError } from "../errors";
import { classifyAddress, METADATA_HOSTNAMES } from "./address-policy";
import { followRedirects } from "./follow-redirects";
import { createGuardedAgent, type Resolve } from "./guarded-agent";
import { canonicalHost, effectivePort, isOpened, type OpenHost, parseOpenHostList } from "./open-hosts";
import { onOpenHostsChange, operatorOpenHosts } from "./operator-open-hosts";
import { addressRefusal, urlRefusal } from "./refusal";

/**
 * The one HTTP client for every server-side request made for a tenant (docs/security.md
 * "Outbound requests"): http_request, MCP over HTTP, provider and embedding base URLs. Same
 * contract as global fetch, but it reaches public unicast addresses only, unless the operator
 * opened the host (OUTBOUND_ALLOW_PRIVATE); cloud metadata is never reached. It connects to
 * the address it checked (lib/net/guarded-agent.ts) and re-checks every redirect hop.
 */

/** Most redirects followed for `redirect: "follow"` (the default), each hop re-checked. */
export const MAX_GUARDED_REDIRECTS = 5;

/** A fetch with the guard (the signature of global fetch). */
export type GuardedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Options of {@link createGuardedFetch}. */
export interface GuardedFetchOptions {
  /** Hosts opened to private addresses (OUTBOUND_ALLOW_PRIVATE syntax), or a function read per request. */
  allowPrivate?: readonly string[] | (() => readonly OpenHost[]);
  /** Resolver for host names (default: the system's, like net.connect). */
  resolve?: Resolve;
}

/** Unwraps undici's `TypeError("fetch failed", { cause })` to the guard's own AppError. */
function guardCause(err: unknown): unknown {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e; depth++, e = (e as { cause?: unknown }).cause) if (isAppError(e)) return e;
  return err;
}

/** Undici's Response as the global Response class (some callers test `instanceof Response`). */
function asGlobalResponse(res: Awaited<ReturnType<typeof undiciFetch>>, url: URL): Response {
  const nullBody = res.status === 204 || res.status === 205 || res.status === 304;
  const out = new Response(nullBody ? null : (res.body as ReadableStream<Uint8Array> | null), { status: res.status, statusText: res.statusText, headers: res.headers as unknown as Headers });
  Object.defineProperty(out, "url", { value: res.url || url.href });
  return out;
}

/** A Request's parts as init (a streamed body is sent half-duplex, as undici requires). */
function fromRequest(req: Request): RequestInit {
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers: req.headers, signal: req.signal, redirect: req.redirect };
  if (req.body) Object.assign(init, { body: req.body, duplex: "half" });
  return init;
}

/**
 * A guarded fetch (see the module header).
 * @throws AppError forbidden / "address_not_allowed" (a forbidden destination, also on a
 *   redirect hop), "scheme_not_allowed"; bad_request / "invalid_url"; unprocessable /
 *   "too_many_redirects", "invalid_redirect"; otherwise what fetch throws (TypeError, AbortError).
 */
export function createGuardedFetch(options: GuardedFetchOptions = {}): GuardedFetch & { close(): Promise<void> } {
  const given = options.allowPrivate;
  const fixed = Array.isArray(given) ? parseOpenHostList(given.join(",")).hosts : [];
  const openHosts = typeof given === "function" ? given : () => fixed;
  const agent = createGuardedAgent({ openHosts, ...(options.resolve ? { resolve: options.resolve } : {}) });

  const sendOnce = async (url: URL, init: RequestInit): Promise<Response> => {
    const host = canonicalHost(url);
    const port = effectivePort(url);
    if (METADATA_HOSTNAMES.has(host)) throw addressRefusal(host, port, "metadata");
    // Literals are judged here for a clear error; the agent judges them again at connect time.
    if (isIP(host.replace(/^\[(.*)\]$/, "$1")) !== 0) {
      const c = classifyAddress(host);
      if (c.verdict === "metadata") throw addressRefusal(host, port, "metadata");
      if (c.verdict === "private" && !isOpened(url, openHosts())) throw addressRefusal(host, port, "literal", c.range);
    }
    try {
      const res = await undiciFetch(url, { ...(init as UndiciRequestInit), dispatcher: agent });
      return asGlobalResponse(res, url);
    } catch (err) {
      throw guardCause(err);
    }
  };

  const guarded = async (input: string | URL | Request, given: RequestInit = {}): Promise<Response> => {
    const init = input instanceof Request ? { ...fromRequest(input), ...given } : given;
    const raw = input instanceof Request ? input.url : input;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw urlRefusal(String(raw), "invalid");
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw urlRefusal(url.href, "scheme");
    if (init.redirect === "manual" || init.redirect === "error") return sendOnce(url, init);
    return followRedirects(sendOnce, url, init, MAX_GUARDED_REDIRECTS);
  };
  return Object.assign(guarded, { close: () => agent.close() });
}

let shared: ReturnType<typeof createGuardedFetch> | undefined;
onOpenHostsChange(() => {
  // Connections pooled under the old list must not outlive it.
  void shared?.close().catch(() => {});
  shared = undefined;
});

/**
 * The default guarded client: hosts opened by the operator's environment (lib/net/operator-open-hosts.ts).
 * Same contract as global fetch; see {@link createGuardedFetch} for what it refuses and throws.
 */
export async function guardedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  shared ??= createGuardedFetch({ allowPrivate: operatorOpenHosts });
  return shared(input, init);
}
