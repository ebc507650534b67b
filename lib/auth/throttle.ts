import "server-only";
import type { Db } from "../db/client";
import { prismaErrorCode } from "../db/prisma-error-code";

/**
 * Sign-in throttling (docs/security.md "Sign-in"): attempts are counted per account and per
 * client address in the database, so every server instance sees the same counts. Each
 * attempt reserves its place by one atomic conditional increment before its password is
 * checked ({@link reserveSignInAttempt}), so a concurrent burst gets no more checks than a
 * slow one. At the limit within the window, that account or address is locked for
 * {@link SIGNIN_LOCK_MS} and every attempt answers 429 before any password is checked.
 * A success clears the account's count (not the address's, which only gets that attempt
 * back: one good password must not reset a guessing campaign over many accounts).
 */

/** The window failures are counted in, ms (15 minutes). */
export const SIGNIN_WINDOW_MS = 15 * 60_000;
/** How long a lock lasts, ms (15 minutes). */
export const SIGNIN_LOCK_MS = 15 * 60_000;
/** Failures of one account within the window that lock it. */
export const ACCOUNT_MAX_FAILURES = 5;
/** Failures from one address within the window that lock it (many accounts, one source). */
export const ADDRESS_MAX_FAILURES = 20;

/** Who is signing in: the account's lower-case email and the client's address. */
export interface SignInSource {
  email: string;
  address: string;
}

const keysOf = (s: SignInSource) => [
  { key: `account:${s.email.trim().toLowerCase()}`, max: ACCOUNT_MAX_FAILURES },
  { key: `address:${s.address}`, max: ADDRESS_MAX_FAILURES },
];

/**
 * The client address a request came from: the rightmost `X-Forwarded-For` entry (the one
 * the nearest proxy appended; Next.js sets it from the socket when no proxy did), else
 * "unknown". Behind no proxy a client can write this header itself, so per-address limits
 * hold only behind a proxy that appends it (docs/security.md "Sign-in").
 */
export function clientAddress(headers: Headers): string {
  const forwarded = headers.get("x-forwarded-for");
  const last = forwarded?.split(",").at(-1)?.trim();
  return last ? last.slice(0, 64) : "unknown";
}

/**
 * How long the source must wait before trying again, ms; 0 when it may try now. A key is
 * waiting while it is locked, and also while its window already holds its limit of attempts
 * (some may still be having their passwords checked): then until the window ends.
 * @param now ms since the epoch.
 */
export async function signInWaitMs(db: Db, source: SignInSource, now: number = Date.now()): Promise<number> {
  const limits = new Map(keysOf(source).map((k) => [k.key, k.max]));
  const rows = await db.signInThrottle.findMany({ where: { key: { in: [...limits.keys()] } } });
  let until = 0;
  for (const r of rows) {
    until = Math.max(until, r.lockedUntil?.getTime() ?? 0);
    const windowEnd = r.windowStart.getTime() + SIGNIN_WINDOW_MS;
    if (windowEnd > now && r.failures >= (limits.get(r.key) ?? Number.POSITIVE_INFINITY)) until = Math.max(until, windowEnd);
  }
  return Math.max(0, until - now);
}

const isUniqueViolation = (err: unknown) => prismaErrorCode(err) === "P2002";

/**
 * Takes one attempt of `key`'s allowance in one conditional update, so that of any number
 * of concurrent attempts, on any number of server instances, at most `max` get one per
 * window: the row is created if missing, started again when its window is over and no lock
 * holds, then `failures` is incremented only where it is below `max` and no lock holds.
 * @returns true when the attempt got its place.
 */
async function reserveKey(db: Db, key: string, max: number, now: number): Promise<boolean> {
  const at = new Date(now);
  try {
    await db.signInThrottle.create({ data: { key, failures: 0, windowStart: at } });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const notLocked = { OR: [{ lockedUntil: null }, { lockedUntil: { lte: at } }] };
  await db.signInThrottle.updateMany({ where: { key, windowStart: { lte: new Date(now - SIGNIN_WINDOW_MS) }, ...notLocked }, data: { failures: 0, windowStart: at, lockedUntil: null } });
  const { count } = await db.signInThrottle.updateMany({ where: { key, failures: { lt: max }, ...notLocked }, data: { failures: { increment: 1 } } });
  return count === 1;
}

/** Gives back one place taken by {@link reserveKey} (never below 0). */
async function releaseKey(db: Db, key: string): Promise<void> {
  await db.signInThrottle.updateMany({ where: { key, failures: { gt: 0 } }, data: { failures: { decrement: 1 } } });
}

/**
 * Reserves one sign-in attempt for the account and the address before any password is
 * checked (docs/security.md "Sign-in"). Each reservation counts as a failure at once, by an
 * atomic conditional increment in the database; {@link recordSignInSuccess} takes it back.
 * So a burst of concurrent attempts for one account, on one or many server instances, has
 * at most {@link ACCOUNT_MAX_FAILURES} passwords checked per window.
 * @param now ms since the epoch.
 * @returns true when the password may be checked; false when the account or the address
 *   has no attempt left (nothing is counted then).
 */
export async function reserveSignInAttempt(db: Db, source: SignInSource, now: number = Date.now()): Promise<boolean> {
  const [account, address] = keysOf(source);
  if (!account || !address) return false;
  if (!(await reserveKey(db, account.key, account.max, now))) return false;
  if (await reserveKey(db, address.key, address.max, now)) return true;
  await releaseKey(db, account.key);
  return false;
}

/**
 * Ends a reserved attempt whose password was wrong: its reservation stays counted, and the
 * account or address that has reached its limit is locked for {@link SIGNIN_LOCK_MS}.
 * @param now ms since the epoch.
 */
export async function recordSignInFailure(db: Db, source: SignInSource, now: number = Date.now()): Promise<void> {
  for (const { key, max } of keysOf(source)) {
    await db.signInThrottle.updateMany({ where: { key, failures: { gte: max } }, data: { lockedUntil: new Date(now + SIGNIN_LOCK_MS) } });
  }
}

/**
 * Ends a reserved attempt whose password was right: clears the account's count and gives
 * the address back its reservation (a success is not a failure of the address).
 */
export async function recordSignInSuccess(db: Db, source: SignInSource): Promise<void> {
  const [account, address] = keysOf(source);
  if (account) await db.signInThrottle.deleteMany({ where: { key: account.key } });
  if (address) await releaseKey(db, address.key);
}

/** "Too many sign-in attempts" in plain words, with the wait rounded up to minutes. */
export function throttledMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
