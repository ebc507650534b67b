import { Prisma } from "../../generated/prisma/client";

/**
 * The Prisma error code of `err` (e.g. "P2002"), when it is Prisma's known request error
 * (`Prisma.PrismaClientKnownRequestError` of the generated client). The class name is
 * accepted too, in case a bundler loaded a second copy of Prisma's runtime.
 */
export function prismaErrorCode(err: unknown): string | undefined {
  if (err instanceof Prisma.PrismaClientKnownRequestError) return err.code;
  if (err instanceof Error && err.name === "PrismaClientKnownRequestError" && "code" in err && typeof err.code === "string") return err.code;
  return undefined;
}

/**
 * SQLite's result codes for "another connection holds the lock" (primary and extended:
 * SQLITE_BUSY, SQLITE_BUSY_SNAPSHOT, SQLITE_BUSY_TIMEOUT, SQLITE_LOCKED, SQLITE_LOCKED_SHAREDCACHE…),
 * as better-sqlite3 names them in `err.code`.
 */
const SQLITE_BUSY_CODE = /^SQLITE_(BUSY|LOCKED)(_[A-Z]+)?$/;

/**
 * True when `err` is SQLite refusing a statement because the database is locked, told by
 * error code, never by message text:
 * - better-sqlite3's own error (the checkpointer's driver path): its `code`;
 * - through Prisma's driver adapter: the adapter maps SQLITE_BUSY to the "SocketTimeout"
 *   kind, which Prisma reports as known request error P1008 carrying the driver's code in
 *   `meta.driverAdapterError.cause.originalCode`; a raw query reports P2010 with the same
 *   cause. The driver's code is what is checked, so a PostgreSQL timeout (also P1008) is not
 *   taken for a lock.
 * Nothing was written by the refused statement, so the caller may try it again.
 */
export function isSqliteBusy(err: unknown): boolean {
  if (typeof err !== "object" || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string" && SQLITE_BUSY_CODE.test(code)) return true;
  if (prismaErrorCode(err) === undefined) return false;
  const cause = (err as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } } }).meta?.driverAdapterError?.cause;
  return typeof cause?.originalCode === "string" && SQLITE_BUSY_CODE.test(cause.originalCode);
}
