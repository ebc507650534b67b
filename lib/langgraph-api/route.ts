import "server-only";
import type { ErrorBody } from "../http/errors";
import type { InputSchemas, RouteContext } from "../http/read-input";
import { type SessionUser, withUser } from "../http/with-user";

/**
 * The error body of the LangGraph Platform API (docs/langgraph-api.md#errors): `detail` is what
 * the official clients show; `error` keeps our code, reason and field issues for callers that
 * want them.
 */
export interface PlatformErrorBody {
  detail: string;
  error: ErrorBody["error"];
}

/**
 * Rewrites one of our JSON error responses (`{ error: { message, ... } }`) into the LangGraph
 * Platform API's shape (`{ detail, error }`), keeping status and headers. Other responses
 * pass through untouched.
 */
export async function platformError(res: Response): Promise<Response> {
  if (res.status < 400 || !res.headers.get("content-type")?.includes("application/json")) return res;
  const body = (await res.clone().json()) as Partial<ErrorBody>;
  if (!body.error) return res;
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  return Response.json({ detail: body.error.message, error: body.error } satisfies PlatformErrorBody, { status: res.status, headers });
}

/**
 * {@link withUser} for the LangGraph Platform API under `/api/langgraph`: the same input
 * parsing, authentication (session or API key) and error mapping, with errors in the
 * Platform API's `{ detail }` shape.
 */
export function withPlatform<P = Record<string, never>, B = undefined, Q = undefined>(
  schemas: InputSchemas<P, Q, B>,
  handler: (req: Request, ctx: { user: SessionUser; params: P; body: B; query: Q }) => Promise<Response>,
): (req: Request, ctx: RouteContext) => Promise<Response> {
  const inner = withUser(schemas, handler);
  return async (req, ctx) => platformError(await inner(req, ctx));
}
