import type { Prisma } from "../../generated/prisma/client";
import { type Db, dialectOf } from "./client";

/**
 * A Prisma string filter "contains `text`, ignoring case", the same on both databases:
 * SQLite's LIKE already ignores the case of ASCII letters (and Prisma rejects `mode` there);
 * PostgreSQL's LIKE does not, so it gets `mode: "insensitive"` (ILIKE, which also ignores
 * the case of non-ASCII letters). Like Prisma's `contains`, `%` and `_` in `text` are
 * wildcards on both.
 */
export function containsText(db: Db, text: string): Prisma.StringFilter {
  // `mode` exists only in the PostgreSQL client's types; Db is typed as the SQLite client.
  return dialectOf(db) === "postgresql" ? ({ contains: text, mode: "insensitive" } as Prisma.StringFilter) : { contains: text };
}
