import { type NextRequest, NextResponse } from "next/server";
import { undecodablePath } from "./lib/http/path-decoding";

/**
 * Runs before routing: a path that does not percent-decode to text gets a 400 here,
 * because Next.js's own route matching answers it with a 500 (docs/security.md "Input
 * limits"; lib/http/path-decoding.ts). Everything else passes through untouched.
 */
export function proxy(req: NextRequest): Response {
  if (undecodablePath(req.nextUrl.pathname)) {
    const message = "The URL path has a % escape that is not UTF-8 text (e.g. %zz or a lone surrogate's bytes); fix the link.";
    return Response.json({ error: { code: "bad_request", reason: "invalid_path", message } }, { status: 400 });
  }
  return NextResponse.next();
}

/**
 * Only paths with a `%` reach the proxy: Next.js buffers the body of every request its proxy
 * sees (up to 10 MB), which would undo the routes' own streaming byte caps for the rest.
 */
export const config = { matcher: "/:path(.*%.*)" };
