import { AppError } from "../errors";

/**
 * Redirects followed by hand (docs/security.md "Outbound requests"), so that every hop is a
 * new request through the guard, with the fetch standard's rules: 303 (and 301/302 after a
 * POST) continue as GET without body; 307/308 repeat method and body; credentials are
 * dropped when the origin changes.
 */

/** Status codes that redirect. */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ["authorization", "cookie", "proxy-authorization"];
/** Headers describing a body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = ["content-type", "content-length", "content-encoding", "content-language", "content-location"];

/** One hop: sends `init` to `url` without following redirects. */
export type SendOnce = (url: URL, init: RequestInit) => Promise<Response>;

function replayable(body: RequestInit["body"]): boolean {
  return body == null || typeof body === "string" || body instanceof ArrayBuffer || ArrayBuffer.isView(body) || body instanceof Blob || body instanceof URLSearchParams || body instanceof FormData;
}

/**
 * Sends `init` to `url`, following at most `max` redirects; each hop goes through `send`.
 * @returns the first response that is not a redirect (or a redirect without Location).
 * @throws AppError unprocessable / "too_many_redirects", "invalid_redirect" (Location does not
 *   parse, or leaves http/https), "redirect_body_not_replayable" (307/308 with a stream body);
 *   whatever `send` throws (e.g. forbidden / "address_not_allowed" for a hop).
 */
export async function followRedirects(send: SendOnce, url: URL, init: RequestInit, max: number): Promise<Response> {
  let current = url;
  let method = (init.method ?? "GET").toUpperCase();
  let body = init.body;
  const headers = new Headers(init.headers);
  for (let hop = 0; ; hop++) {
    const response = await send(current, { ...init, method, body, headers, redirect: "manual" });
    const location = response.headers.get("location");
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
    await response.body?.cancel().catch(() => {});
    if (hop >= max) throw new AppError("unprocessable", "too_many_redirects", `${url.host} redirected more than ${max} times; use the final URL directly.`);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new AppError("unprocessable", "invalid_redirect", `${current.host} redirected to a Location that is not a URL.`);
    }
    if (next.protocol !== "http:" && next.protocol !== "https:") {
      throw new AppError("unprocessable", "invalid_redirect", `${current.host} redirected to a ${next.protocol} URL; only http and https are followed.`);
    }
    if (response.status === 303 ? method !== "HEAD" : (response.status === 301 || response.status === 302) && method === "POST") {
      method = "GET";
      body = undefined;
      for (const h of BODY_HEADERS) headers.delete(h);
    } else if ((response.status === 307 || response.status === 308) && !replayable(body)) {
      throw new AppError("unprocessable", "redirect_body_not_replayable", `${current.host} redirected a streamed request body; send it to the final URL directly.`);
    }
    if (next.origin !== current.origin) for (const h of CREDENTIAL_HEADERS) headers.delete(h);
    next.hash = "";
    current = next;
  }
}
