import "server-only";
import { redirect } from "next/navigation";
import { auth } from "../auth/auth";
import { AppError } from "../errors";
import { errorResponse } from "./errors";
import { type InputSchemas, type RouteContext, readInput } from "./read-input";

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

/**
 * The one wrapper for route handlers: reads the route params,
 * query and JSON body within the input limits and parses them with zod first
 * (lib/http/read-input.ts, docs/security.md "Input limits"), then resolves the session
 * user (401 when signed out), then runs the handler; any thrown error becomes a JSON error
 * response (lib/http/errors.ts). `maxBodyBytes` raises the body cap for routes that need it.
 */
export function withUser<P = Record<string, never>, B = undefined, Q = undefined>(
  schemas: InputSchemas<P, Q, B>,
  handler: (req: Request, ctx: { user: SessionUser; params: P; body: B; query: Q }) => Promise<Response>,
): (req: Request, ctx: RouteContext) => Promise<Response> {
  return async (req, ctx) => {
    try {
      const { params, query, body } = await readInput(req, ctx, schemas);
      const user = await currentUser();
      if (!user) throw new AppError("unauthorized", "signed_out", "Sign in first: this endpoint needs a session.");
      return await handler(req, { user, params, body, query });
    } catch (err) {
      return errorResponse(err);
    }
  };
}
