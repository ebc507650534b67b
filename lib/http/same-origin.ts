import { AppError } from "../errors";

/** Methods that change nothing (RFC 9110 §9.2.1 "safe methods"): never refused here. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The JSON media types a cookie request's body may declare: application/json and any +json. */
const JSON_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** The host a request was sent to: the nearest proxy's `X-Forwarded-Host`, else `Host`. */
function requestHost(headers: Headers): string | null {
  const forwarded = headers.get("x-forwarded-host")?.split(",")[0]?.trim();
  return (forwarded || headers.get("host"))?.toLowerCase() ?? null;
}

/**
 * Why a request authenticated by the browser's session cookie must be refused as a possible
 * cross-site request forgery, or null when it may go on (docs/security.md "Cross-site
 * requests"). Only state-changing methods are checked, and only requests without an API key
 * should be given to it: a page elsewhere cannot make a browser send a key it does not hold.
 * - `Sec-Fetch-Site`, when the browser sends it, must be `same-origin`: a sibling subdomain
 *   is `same-site`, and is refused like any other site.
 * - Otherwise `Origin`, when sent, must name the host the request was sent to (`null` is
 *   refused). Browsers send one of the two on every cross-origin POST, PUT, PATCH and DELETE;
 *   a request with neither comes from a program, not from a page.
 * - A body must be declared JSON (`application/json` or `+json`): an HTML form can post
 *   only `text/plain`, `multipart/form-data` or `application/x-www-form-urlencoded`.
 * - With `opts.multipart` (the upload routes: docs/documents.md "Upload", docs/library.md "Uploading"), a
 *   `multipart/form-data` body is taken too, but only from a request that proves it is
 *   same-origin (`Sec-Fetch-Site: same-origin`, or an `Origin` naming the host): an HTML form
 *   on another site can post multipart, and browsers always send one of the two with it.
 * @returns AppError forbidden ("cross_origin") or unsupported_media_type ("not_json"), or null.
 */
export function crossSiteRefusal(req: Request, opts: { multipart?: boolean } = {}): AppError | null {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return null;
  const h = req.headers;
  const site = h.get("sec-fetch-site");
  const origin = h.get("origin");
  let foreign = false;
  if (site !== null) foreign = site.trim().toLowerCase() !== "same-origin";
  else if (origin !== null) {
    let host: string | null = null;
    try {
      host = origin.trim() === "null" ? null : new URL(origin).host.toLowerCase();
    } catch {
      host = null;
    }
    foreign = host === null || host !== requestHost(h);
  }
  if (foreign) {
    return new AppError(
      "forbidden",
      "cross_origin",
      "This request came from another site (Origin / Sec-Fetch-Site), so the session cookie it carries is not honoured; use the app itself, or send an API key as Authorization: Bearer <key>.",
    );
  }
  const type = h.get("content-type");
  const hasBody = type !== null || Number(h.get("content-length") ?? "0") > 0 || h.has("transfer-encoding");
  if (opts.multipart && type !== null && /^multipart\/form-data\s*(;|$)/i.test(type.trim())) {
    if (site !== null || origin !== null) return null;
    return new AppError(
      "forbidden",
      "cross_origin",
      "An upload signed in with the session cookie must come from the app's own page (Sec-Fetch-Site or Origin); programs send an API key as Authorization: Bearer <key>.",
    );
  }
  if (hasBody && (type === null || !JSON_TYPE.test(type.trim()))) {
    return new AppError(
      "unsupported_media_type",
      "not_json",
      `A request signed in with the session cookie must send its body as JSON (content-type: application/json), not ${(type ?? "no content type").slice(0, 100)}.`,
    );
  }
  return null;
}
