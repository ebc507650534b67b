import "server-only";
import { notFound } from "next/navigation";
import { isAppError } from "../errors";

/**
 * For pages: the value, or Next's not-found page when the lookup throws an AppError
 * `not_found` (another user's ids answer 404). Other errors are rethrown.
 */
export async function orNotFound<T>(lookup: Promise<T>): Promise<T> {
  try {
    return await lookup;
  } catch (err) {
    if (isAppError(err) && err.code === "not_found") notFound();
    throw err;
  }
}
