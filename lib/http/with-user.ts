import "server-only";
import { redirect } from "next/navigation";
import { type AccessFor, type Need, resolveAccess } from "../auth/access";
import { auth } from "../auth/auth";
import { authenticateApiKey } from "../auth/authenticate-api-key";
import { runInWorkspaceScope } from "../auth/workspace-scope";
import { db } from "../db/client";
import { AppError } from "../errors";
import { errorResponse } from "./errors";
import { presentedApiKey } from "./presented-api-key";
import { type InputSchemas, type RouteContext, readInput } from "./read-input";
import { crossSiteRefusal } from "./same-origin";

/** The user a handler acts for: signed in with a session, or through one of their API keys. */
export interface SessionUser {
  id: string;
  email: string;
  /** How the request proved who it is (docs/api.md "API keys"). */
  via: "session" | "key";
  /** The API key's id, when `via` is "key". */
  keyId?: string;
  /** The one workspace the request may reach (a key made for it), or null for all the user's. */
  workspaceScope: string | null;
}

/**
 * The user of a request, or null. Without `req` (pages) only the session counts. With `req`
 * (route handlers), a request that presents an API key (`Authorization: Bearer <key>` or
 * `x-api-key: <key>`; lib/http/presented-api-key.ts) is that key's user, and never falls back
 * to the session cookie (docs/api.md "API keys").
 * @throws AppError unauthorized ("invalid_api_key") when the presented key is malformed,
 *   unknown or revoked.
 */
export async function currentUser(req?: Request): Promise<SessionUser | null> {
  const presented = req ? presentedApiKey(req.headers) : null;
  if (presented !== null) {
    const key = await authenticateApiKey(db(), presented);
    if (!key) {
      throw new AppError("unauthorized", "invalid_api_key", "This API key is unknown or revoked. Make a new key in Settings > API keys and send it as Authorization: Bearer <key>.");
    }
    return { id: key.userId, email: key.email, via: "key", keyId: key.keyId, workspaceScope: key.workspaceId };
  }
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  return { id, email: session.user?.email ?? "", via: "session", workspaceScope: null };
}

/** For pages: the signed-in user (session only, never a key), or a redirect to /sign-in. */
export async function requireUser(): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect("/sign-in");
  return user;
}

/** What a route declares to {@link withUser}: its input schemas and who may call it. */
export interface RouteOptions<P, Q, B, N extends Need<P, B> | undefined = undefined> extends InputSchemas<P, Q, B> {
  /**
   * The capability the route needs and the resource (thread, flow, workspace, approval or
   * memory fact) whose workspace it needs it in, named by the route param (or body field)
   * holding its id, e.g. `need: { capability: "run", thread: "threadId" }` or
   * `need: { capability: "run", flow: { body: "flowId" } }` (lib/auth/access.ts). The
   * wrapper resolves the resource and the caller's role once, answers 404 when the caller is
   * not a member (as if the resource did not exist) and 403 ("role_forbidden") when the role
   * lacks the capability, and hands the handler `access` ({ userId, role, workspaceId } and
   * the resource), which the handler passes to its services instead of the user id
   * (lib/auth/membership.ts `Caller`), so they do not look the role up again. Every route
   * under app/api that acts in a workspace declares one (lib/http/route-needs.test.ts;
   * docs/security.md "Roles and powers").
   */
  need?: N;
  /**
   * True for the routes that manage API keys: a key is refused (403 "session_required"), so
   * that a key, even one made for one workspace, never makes or revokes keys (docs/api.md
   * "API keys").
   */
  sessionOnly?: boolean;
  /**
   * True for the routes that act on the whole account or the whole instance, beyond any one
   * workspace (model providers, instance admin): a key made for one workspace is refused
   * (403 "scoped_key_refused"), since what it changed would reach the user's other
   * workspaces; sessions and keys made for every workspace pass (docs/security.md "API key
   * scope").
   */
  accountLevel?: boolean;
  /**
   * True for the upload routes: a same-origin `multipart/form-data` body passes the
   * cross-site check (lib/http/same-origin.ts); the route reads the body itself.
   */
  multipart?: boolean;
}

/** Whether a request presents no API key (a malformed pair of keys counts as presenting one). */
function presentsNoKey(req: Request): boolean {
  try {
    return presentedApiKey(req.headers) === null;
  } catch {
    return false;
  }
}

/**
 * The one wrapper for route handlers: reads the route params,
 * query and JSON body within the input limits and parses them with zod first
 * (lib/http/read-input.ts, docs/security.md "Input limits"), after refusing a state-changing
 * request without an API key that comes from another site or sends a body that is not JSON
 * (lib/http/same-origin.ts, docs/security.md "Cross-site requests"), then resolves the user
 * from an API key or the session (401 when there is neither, or the key is invalid), refuses
 * keys the route does not take (`sessionOnly`, `accountLevel`), then, inside the user's
 * workspace scope (lib/auth/workspace-scope.ts: a key made for one workspace sees no other),
 * resolves what the route `need`s (404 for a non-member, 403 for a role without the
 * capability; lib/auth/access.ts) and runs the handler with it; any thrown error becomes a JSON error response
 * (lib/http/errors.ts). `maxBodyBytes` raises the body cap for routes that need it.
 */
export function withUser<P = Record<string, never>, B = undefined, Q = undefined, N extends Need<P, B> | undefined = undefined>(
  schemas: RouteOptions<P, Q, B, N>,
  handler: (req: Request, ctx: { user: SessionUser; params: P; body: B; query: Q; access: AccessFor<N> }) => Promise<Response>,
): (req: Request, ctx: RouteContext) => Promise<Response> {
  return async (req, ctx) => {
    try {
      // A request without a key may carry the session cookie: it must be same-origin JSON.
      if (presentsNoKey(req)) {
        const refusal = crossSiteRefusal(req, { multipart: schemas.multipart === true });
        if (refusal) throw refusal;
      }
      const { params, query, body } = await readInput(req, ctx, schemas);
      const user = await currentUser(req);
      if (!user) throw new AppError("unauthorized", "signed_out", "Sign in first, or send an API key as Authorization: Bearer <key>.");
      if (schemas.sessionOnly && user.via !== "session") {
        throw new AppError("forbidden", "session_required", "API keys cannot manage API keys; sign in and use Settings > API keys.");
      }
      if (schemas.accountLevel && user.workspaceScope !== null) {
        throw new AppError(
          "forbidden",
          "scoped_key_refused",
          "This API key is limited to one workspace, and this route acts on the whole account or instance; sign in, or use a key made for all your workspaces.",
        );
      }
      return await runInWorkspaceScope(user.workspaceScope, async () => {
        const need = schemas.need;
        const access = (need ? await resolveAccess(db(), user.id, need, { params, body }) : undefined) as AccessFor<N>;
        return handler(req, { user, params, body, query, access });
      });
    } catch (err) {
      return errorResponse(err);
    }
  };
}
