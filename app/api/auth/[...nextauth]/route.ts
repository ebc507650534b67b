// GET|POST /api/auth/* - Auth.js (next-auth) sign-in, sign-out, session and CSRF endpoints; a throttled credentials sign-in answers 429.
import type { NextRequest } from "next/server";
import { handlers } from "@/lib/auth/auth";
import { clientAddress, signInWaitMs, throttledMessage } from "@/lib/auth/throttle";
import { db } from "@/lib/db/client";
import { AppError } from "@/lib/errors";
import { errorResponse } from "@/lib/http/errors";

export const { GET } = handlers;

/** Largest credentials sign-in body read, bytes. */
const MAX_SIGNIN_BODY_BYTES = 16_384;

/**
 * Auth.js's POST, behind the sign-in throttle (docs/security.md "Sign-in"): a credentials
 * sign-in for a locked account or address gets 429 with Retry-After before any password
 * is checked; Auth.js counts the failures it sees.
 */
export async function POST(req: NextRequest): Promise<Response> {
  if (new URL(req.url).pathname.endsWith("/callback/credentials")) {
    // A sign-in form is a few hundred bytes: a larger (or unsized) body is not read here.
    const size = Number(req.headers.get("content-length") ?? Number.NaN);
    if (!(size <= MAX_SIGNIN_BODY_BYTES)) {
      return errorResponse(new AppError("payload_too_large", "body_too_large", `A sign-in request has at most ${MAX_SIGNIN_BODY_BYTES} bytes.`));
    }
    let email = "";
    try {
      email = String((await req.clone().formData()).get("email") ?? "");
    } catch {
      // Not a form: Auth.js answers it.
    }
    const waitMs = await signInWaitMs(db(), { email, address: clientAddress(req.headers) });
    if (waitMs > 0) {
      const res = errorResponse(new AppError("too_many_requests", "signin_throttled", throttledMessage(waitMs)));
      res.headers.set("retry-after", String(Math.ceil(waitMs / 1000)));
      return res;
    }
  }
  return handlers.POST(req);
}
