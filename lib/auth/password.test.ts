import bcrypt from "bcryptjs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DUMMY_PASSWORD_HASH, PASSWORD_BCRYPT_COST, passwordMatches } from "./password";

/**
 * Password checks (docs/security.md "Sign-in"): an email with no account costs the same
 * bcrypt work as a wrong password for a real one, so sign-in timing does not enumerate
 * accounts.
 */
describe("passwordMatches", () => {
  afterEach(() => vi.restoreAllMocks());

  it("the dummy hash has the cost of every new password hash", () => {
    expect(bcrypt.getRounds(DUMMY_PASSWORD_HASH)).toBe(PASSWORD_BCRYPT_COST);
  });

  it.each([null, undefined, ""])("with no stored hash (%s), the password is still compared, against the dummy hash, and never matches", async (hash) => {
    const compare = vi.spyOn(bcrypt, "compare");
    expect(await passwordMatches(hash, "correct horse battery staple")).toBe(false);
    expect(compare).toHaveBeenCalledTimes(1);
    expect(compare.mock.calls[0]?.[1]).toBe(DUMMY_PASSWORD_HASH);
  });

  it("a stored hash matches its password only", async () => {
    const hash = await bcrypt.hash("correct horse battery staple", 4);
    expect(await passwordMatches(hash, "correct horse battery staple")).toBe(true);
    expect(await passwordMatches(hash, "wrong horse")).toBe(false);
  });
});
