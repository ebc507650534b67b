import "server-only";
import type { Db } from "../db/client";

/**
 * Sign-in throttling (docs/security.md "Sign-in"): failed attempts are counted per account
 * and per client address in the database, so every server instance sees the same counts.
 * Past the limit within the window, that account or address is locked for
 * {@link SIGNIN_LOCK_MS} and every attempt answers 429 before any password is checked.
 * A success clears the account's count (not the address's: one good password must not
 * reset a guessing campaign over many accounts).
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
 * How long the source must wait before trying again, ms; 0 when it may try now.
 * @param now ms since the epoch.
 */
export async function signInWaitMs(db: Db, source: SignInSource, now: number = Date.now()): Promise<number> {
  const rows = await db.signInThrottle.findMany({ where: { key: { in: keysOf(source).map((k) => k.key) } }, select: { lockedUntil: true } });
  const until = Math.max(0, ...rows.map((r) => r.lockedUntil?.getTime() ?? 0));
  return Math.max(0, until - now);
}

/**
 * Counts one failed attempt for the account and the address, locking whichever reached
 * its limit within the window. A count older than the window starts again at 1.
 * @param now ms since the epoch.
 */
export async function recordSignInFailure(db: Db, source: SignInSource, now: number = Date.now()): Promise<void> {
  const at = new Date(now);
  for (const { key, max } of keysOf(source)) {
    const row = await db.signInThrottle.upsert({ where: { key }, create: { key, failures: 1, windowStart: at }, update: { failures: { increment: 1 } } });
    if (row.windowStart.getTime() <= now - SIGNIN_WINDOW_MS) {
      await db.signInThrottle.update({ where: { key }, data: { failures: 1, windowStart: at, lockedUntil: null } });
    } else if (row.failures >= max) {
      await db.signInThrottle.update({ where: { key }, data: { lockedUntil: new Date(now + SIGNIN_LOCK_MS) } });
    }
  }
}

/** Clears the account's failures after a successful sign-in. */
export async function recordSignInSuccess(db: Db, email: string): Promise<void> {
  await db.signInThrottle.deleteMany({ where: { key: `account:${email.trim().toLowerCase()}` } });
}

/** "Too many sign-in attempts" in plain words, with the wait rounded up to minutes. */
export function throttledMessage(waitMs: number): string {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
