import { ZodError } from "zod";
import { AppError, isAppError } from "../errors";
import { logger } from "../log";

/** JSON body of every error response: `{ error: { code, reason, message, issues? } }`. */
export interface ErrorBody {
  error: { code: string; reason: string; message: string; issues?: { path: string; message: string }[] };
}

/**
 * Turns any thrown value into a Response (STYLE.md rule 3): ZodError -> 422 with one issue
 * per field (dotted path), AppError -> its status, anything else -> 500 with details only
 * in the server log.
 */
export function errorResponse(err: unknown): Response {
  if (err instanceof ZodError) {
    const issues = err.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    const first = issues[0];
    const message = first ? `${first.path || "body"}: ${first.message}` : "invalid input";
    return Response.json({ error: { code: "unprocessable", reason: "invalid_input", message, issues } } satisfies ErrorBody, { status: 422 });
  }
  if (isAppError(err)) {
    return Response.json({ error: { code: err.code, reason: err.reason, message: err.message } } satisfies ErrorBody, { status: err.status });
  }
  logger.error({ err }, "unhandled error");
  return Response.json({ error: { code: "internal", reason: "internal", message: "Something went wrong on the server; see its log." } } satisfies ErrorBody, {
    status: 500,
  });
}

/**
 * Reads a JSON body and parses it with `schema`.
 * @throws AppError bad_request when the body is not JSON; ZodError when it doesn't match.
 */
export async function parseJson<T>(req: Request, schema: { parse(v: unknown): T }): Promise<T> {
  let raw: unknown;
  try {
    raw = await req.json();
  } catch {
    throw new AppError("bad_request", "invalid_json", "The request body must be JSON.");
  }
  return schema.parse(raw);
}
