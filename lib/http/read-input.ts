import { AppError } from "../errors";
import { type InputFault, findInputFault } from "./input-fault";
import { readJsonBody } from "./read-json-body";

/** Anything with zod's `parse` (a zod schema). */
export type Schema<T> = { parse(v: unknown): T };

/**
 * The second argument Next.js passes a route handler. Routes without a dynamic segment
 * may get no `params` at all, so both are optional.
 */
export type RouteContext = { params?: Promise<Record<string, string | string[]> | undefined> } | undefined;

/** What a route declares about its input; each part is parsed only when its schema is given. */
export interface InputSchemas<P, Q, B> {
  /** Route params (`[threadId]`), as strings. */
  params?: Schema<P>;
  /** Query string, as a record of strings (the last value of a repeated key wins). */
  query?: Schema<Q>;
  /** JSON body. */
  body?: Schema<B>;
  /** Cap on the JSON body in bytes; default 1 MiB (lib/http/input-limits.ts). */
  maxBodyBytes?: number;
}

/** The parsed input of one request. */
export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
}

function refuse(where: string, fault: InputFault): never {
  const path = fault.path || where;
  throw new AppError("unprocessable", "invalid_input", `${path} (${where}): ${fault.message}.`, { issues: [{ path: fault.path, message: fault.message }] });
}

/**
 * Reads and validates a request's route params, query and JSON body, in that order, for
 * every route wrapper (docs/security.md "Input limits"): each string is checked for
 * well-formed Unicode (and `__proto__` keys refused) before zod sees it; the body goes
 * through `readJsonBody` (type, byte cap, depth, then parse). A route with no dynamic
 * segment reads as `{}` params.
 * @throws AppError 413/415/400/422 from the body reader, 422 naming the field with a lone
 *   surrogate; ZodError (422) when a part does not match its schema.
 */
export async function readInput<P, Q, B>(req: Request, ctx: RouteContext, schemas: InputSchemas<P, Q, B>): Promise<RouteInput<P, Q, B>> {
  const rawParams = (await ctx?.params) ?? {};
  const paramFault = findInputFault(rawParams);
  if (paramFault) refuse("route params", paramFault);
  const params = (schemas.params ? schemas.params.parse(rawParams) : rawParams) as P;

  const rawQuery = Object.fromEntries(new URL(req.url).searchParams);
  const queryFault = findInputFault(rawQuery);
  if (queryFault) refuse("query", queryFault);
  const query = (schemas.query ? schemas.query.parse(rawQuery) : undefined) as Q;

  const body = (schemas.body ? schemas.body.parse(await readJsonBody(req, { ...(schemas.maxBodyBytes ? { maxBytes: schemas.maxBodyBytes } : {}) })) : undefined) as B;
  return { params, query, body };
}
