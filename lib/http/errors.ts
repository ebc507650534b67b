import { ZodError } from "zod";
import { type AppError, isAppError } from "../errors";
import { logger } from "../log";
import { prismaAppError } from "./prisma-error";

/** One field an error is about: dotted path as zod writes it ("" for the whole input). */
export interface ErrorIssue {
  path: string;
  message: string;
}

/** JSON body of every error response: `{ error: { code, reason, message, issues? } }`. */
export interface ErrorBody {
  error: { code: string; reason: string; message: string; issues?: ErrorIssue[] };
}

function detailIssues(err: AppError): ErrorIssue[] | undefined {
  const issues = err.details?.issues;
  return Array.isArray(issues) ? (issues as ErrorIssue[]) : undefined;
}

function appErrorResponse(err: AppError): Response {
  const issues = detailIssues(err);
  const body: ErrorBody = { error: { code: err.code, reason: err.reason, message: err.message, ...(issues ? { issues } : {}) } };
  return Response.json(body, { status: err.status });
}

/**
 * Turns any thrown value into a Response: ZodError -> 422 with one issue
 * per field (dotted path); AppError -> its status (with `details.issues`, when given, as
 * the issues); Prisma's unique, foreign-key and missing-row errors -> 409 / 404
 * (lib/http/prisma-error.ts); anything else -> 500 with details only in the server log.
 */
export function errorResponse(err: unknown): Response {
  if (err instanceof ZodError) {
    const issues = err.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    const first = issues[0];
    const message = first ? `${first.path || "body"}: ${first.message}` : "invalid input";
    return Response.json({ error: { code: "unprocessable", reason: "invalid_input", message, issues } } satisfies ErrorBody, { status: 422 });
  }
  if (isAppError(err)) return appErrorResponse(err);
  const mapped = prismaAppError(err);
  if (mapped) {
    logger.debug({ err }, "database error answered as a client error");
    return appErrorResponse(mapped);
  }
  logger.error({ err }, "unhandled error");
  return Response.json({ error: { code: "internal", reason: "internal", message: "Something went wrong on the server; see its log." } } satisfies ErrorBody, {
    status: 500,
  });
}
