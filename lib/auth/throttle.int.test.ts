import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, type Db } from "../db/client";
import { createTestDb, type TestDb } from "../db/test-db";
import { ACCOUNT_MAX_FAILURES, ADDRESS_MAX_FAILURES, recordSignInFailure, recordSignInSuccess, reserveSignInAttempt, SIGNIN_LOCK_MS, SIGNIN_WINDOW_MS, signInWaitMs } from "./throttle";

/**
 * The sign-in throttle on a real database (docs/security.md "Sign-in"), SQLite or PostgreSQL
 * (TEST_DATABASE_URL): however many attempts race, at most the limit get a password check per
 * window, and no count is lost. On PostgreSQL two Prisma clients stand for two server
 * instances. On SQLite one client serves the race: two in one process would block each
 * other's event loop on the file lock (tests/security/signin-burst.int.test.ts races two
 * real server processes on both databases).
 */
describe("sign-in throttle under concurrency", () => {
  let t: TestDb;
  let second: Db;
  const now = Date.UTC(2026, 10, 27, 9, 0, 0);

  beforeAll(async () => {
    t = await createTestDb();
    second = t.dialect === "postgresql" ? createDb(t.url) : t.db;
  });
  afterAll(async () => {
    if (second !== t?.db) await second?.$disconnect();
    await t?.cleanup();
  });

  const row = (key: string) => t.db.signInThrottle.findUnique({ where: { key } });

  it("30 concurrent attempts for one account reserve exactly 5 password checks", async () => {
    const source = (i: number) => ({ email: "Victim@Test.dev ", address: `198.51.100.${i}` });
    const granted = await Promise.all(Array.from({ length: 30 }, (_, i) => reserveSignInAttempt(i % 2 ? t.db : second, source(i), now)));
    expect(granted.filter(Boolean)).toHaveLength(ACCOUNT_MAX_FAILURES);
    expect((await row("account:victim@test.dev"))?.failures).toBe(ACCOUNT_MAX_FAILURES);
    // The refused ones counted nothing against their addresses, and the account waits.
    const addressCounts = await t.db.signInThrottle.aggregate({ where: { key: { startsWith: "address:198.51.100." } }, _sum: { failures: true } });
    expect(addressCounts._sum.failures).toBe(ACCOUNT_MAX_FAILURES);
    expect(await signInWaitMs(t.db, source(99), now)).toBeGreaterThan(0);
    expect(await reserveSignInAttempt(t.db, source(99), now)).toBe(false);
  });

  it("concurrent failures from one address over many accounts lose no count: 25 racing, 20 counted, then it is locked", async () => {
    const source = (i: number) => ({ email: `sprayed-${i}@test.dev`, address: "203.0.113.9" });
    const granted = await Promise.all(Array.from({ length: 25 }, (_, i) => reserveSignInAttempt(i % 2 ? t.db : second, source(i), now)));
    expect(granted.filter(Boolean)).toHaveLength(ADDRESS_MAX_FAILURES);
    await Promise.all(granted.map((g, i) => (g ? recordSignInFailure(i % 2 ? t.db : second, source(i), now) : null)));
    const address = await row("address:203.0.113.9");
    expect(address?.failures).toBe(ADDRESS_MAX_FAILURES);
    expect(address?.lockedUntil?.getTime()).toBe(now + SIGNIN_LOCK_MS);
    // The accounts refused for the address got their reservation back.
    const accounts = await t.db.signInThrottle.aggregate({ where: { key: { startsWith: "account:sprayed-" } }, _sum: { failures: true } });
    expect(accounts._sum.failures).toBe(ADDRESS_MAX_FAILURES);
    expect(await signInWaitMs(t.db, source(0), now)).toBe(SIGNIN_LOCK_MS);
  });

  it("a success clears the account and gives the address its attempt back; a lock ends, and with it the window", async () => {
    const source = { email: "carol@test.dev", address: "192.0.2.30" };
    for (let i = 0; i < ACCOUNT_MAX_FAILURES - 1; i++) {
      expect(await reserveSignInAttempt(t.db, source, now)).toBe(true);
      await recordSignInFailure(t.db, source, now);
    }
    expect(await reserveSignInAttempt(t.db, source, now)).toBe(true);
    await recordSignInSuccess(t.db, source);
    expect(await row("account:carol@test.dev")).toBeNull();
    expect((await row("address:192.0.2.30"))?.failures).toBe(ACCOUNT_MAX_FAILURES - 1);
    // Five failures lock the account until the lock ends; then a new window starts.
    for (let i = 0; i < ACCOUNT_MAX_FAILURES; i++) {
      expect(await reserveSignInAttempt(t.db, source, now)).toBe(true);
      await recordSignInFailure(t.db, source, now);
    }
    expect(await reserveSignInAttempt(t.db, source, now + SIGNIN_LOCK_MS - 1)).toBe(false);
    const later = now + Math.max(SIGNIN_LOCK_MS, SIGNIN_WINDOW_MS);
    expect(await signInWaitMs(t.db, { ...source, address: "192.0.2.31" }, later)).toBe(0);
    expect(await reserveSignInAttempt(t.db, { ...source, address: "192.0.2.31" }, later)).toBe(true);
    expect((await row("account:carol@test.dev"))?.failures).toBe(1);
  });
});
