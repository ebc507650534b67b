import bcrypt from "bcryptjs";

/** bcrypt cost of new password hashes (lib/db/accounts.ts; the seed's too). */
export const PASSWORD_BCRYPT_COST = 10;

/**
 * A bcrypt hash of cost {@link PASSWORD_BCRYPT_COST} of a random password nobody knows:
 * what a sign-in for an email with no account (or no password) is compared against, so that
 * it costs the same bcrypt work as one for a real account (docs/security.md "Sign-in").
 */
export const DUMMY_PASSWORD_HASH = "$2b$10$myWuWZyOPj5sR7lDD1q7aOw.0FVk.JPi4TP5F6RuQg4aKOnoF7c0e";

/**
 * Whether `password` matches `hash`. With no hash (no such account, or an account without a
 * password), the password is still compared, against {@link DUMMY_PASSWORD_HASH}, and the
 * answer is false: an unknown email takes as long as a wrong password, so timing does not
 * say which emails have accounts (docs/security.md "Sign-in").
 * @returns true only for a stored hash that the password matches.
 */
export async function passwordMatches(hash: string | null | undefined, password: string): Promise<boolean> {
  const ok = await bcrypt.compare(password, hash || DUMMY_PASSWORD_HASH);
  return ok && Boolean(hash);
}
