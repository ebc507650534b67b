import "server-only";
import { redirect } from "next/navigation";
import { auth } from "../auth/auth";
import { AppError } from "../errors";
import { errorResponse, parseJson } from "./errors";

/** The signed-in user a handler acts for. */
export interface SessionUser {
  id: string;
  email: string;
}

/**
 * The signed-in user, or null.
 */
export async function currentUser(): Promise<SessionUser | null> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  return { id, email: session.user?.email ?? "" };
}

/** For pages: the signed-in user, or a redirect to /sign-in. */
export async function requireUser(): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  return user;
}

type Ctx = { params: Promise<Record<string, string | string[]>> };
type Schema<T> = { parse(v: unknown): T };

/**
 * The one wrapper for route handlers (STYLE.md rules 1, 3, 4): parses the route params and
 * the JSON body with zod first, then resolves the session user (401 when signed out), then
 * runs the handler; any thrown error becomes a JSON error response.
 */
export function withUser<P = Record<string, never>, B = undefined>(
  schemas: { params?: Schema<P>; body?: Schema<B> },
  handler: (req: Request, ctx: { user: SessionUser; params: P; body: B }) => Promise<Response>,
): (req: Request, ctx: Ctx) => Promise<Response> {
  return async (req, ctx) => {
    try {
      const rawParams = await ctx.params;
      const params = (schemas.params ? schemas.params.parse(rawParams) : rawParams) as P;
      const body = (schemas.body ? await parseJson(req, schemas.body) : undefined) as B;
      const user = await currentUser();
      if (!user) throw new AppError("unauthorized", "signed_out", "Sign in first: this endpoint needs a session.");
      return await handler(req, { user, params, body });
    } catch (err) {
      return errorResponse(err);
    }
  };
}
