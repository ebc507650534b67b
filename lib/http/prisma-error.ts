import { prismaErrorCode } from "../db/prisma-error-code";
import { AppError } from "../errors";

/**
 * Prisma's "known request" error codes that describe the caller's request, not a fault of
 * the server, and the product error each one becomes (docs/security.md "Input limits":
 * no client input produces a 5xx). Codes: https://www.prisma.io/docs/orm/reference/error-reference
 */
const KNOWN: Record<string, () => AppError> = {
  // Unique constraint failed: the thing exists already.
  P2002: () => new AppError("conflict", "already_exists", "That already exists (a field that must be unique is taken); change it or reload and try again."),
  // Foreign key constraint failed: it refers to a record that is gone, or is still referred to.
  P2003: () => new AppError("conflict", "still_referenced", "That refers to something that no longer exists, or something else still refers to it; reload and try again."),
  // The record searched for does not exist.
  P2001: () => new AppError("not_found", "not_found", "Not found: it may have been removed; reload and try again."),
  // Related record not found / records to connect not found.
  P2015: () => new AppError("not_found", "not_found", "Not found: a related record may have been removed; reload and try again."),
  P2018: () => new AppError("not_found", "not_found", "Not found: a related record may have been removed; reload and try again."),
  // An operation needed a record that was not found (update or delete of a missing row).
  P2025: () => new AppError("not_found", "not_found", "Not found: it may have been removed; reload and try again."),
};

/**
 * Maps Prisma's request errors centrally: P2002 -> 409 conflict,
 * P2003 -> 409 conflict, P2001/P2015/P2018/P2025 -> 404 not found.
 * @returns the AppError to answer with, or null when `err` is not one of those codes
 *   (then it is a server fault and stays a 500).
 */
export function prismaAppError(err: unknown): AppError | null {
  const code = prismaErrorCode(err);
  const make = code && Object.hasOwn(KNOWN, code) ? KNOWN[code] : undefined;
  return make ? make() : null;
}
