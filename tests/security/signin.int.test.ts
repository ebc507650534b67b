import bcrypt from "bcryptjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD_BCRYPT_COST } from "@/lib/auth/password";
import { ACCOUNT_MAX_FAILURES, ADDRESS_MAX_FAILURES } from "@/lib/auth/throttle";
import { createDb } from "@/lib/db/client";
import { signIn } from "../http/client";
import { startServer, type TestServer } from "../http/server";

/**
 * Sign-in abuse and browser-side hardening (docs/security.md "Sign-in"), against the built
 * app over real HTTP: password guessing is throttled per account and per address with a
 * clear 429, and every page carries the security headers.
 */
describe("an attacker guessing passwords is throttled", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  }, 120_000);
  afterAll(async () => server?.stop());

  /** One credentials sign-in attempt from `address` (the proxy-appended X-Forwarded-For). */
  async function attempt(email: string, password: string, address: string): Promise<Response> {
    const csrf = await fetch(`${server.url}/api/auth/csrf`);
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    return fetch(`${server.url}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie, "x-forwarded-for": address },
      body: new URLSearchParams({ csrfToken, email, password, callbackUrl: `${server.url}/flows` }),
    });
  }

  it("after 5 wrong passwords for one account, even the right password gets 429 with Retry-After", async () => {
    const victim = server.users[1];
    if (!victim) throw new Error("no bob");
    for (let i = 0; i < ACCOUNT_MAX_FAILURES; i++) {
      const res = await attempt(victim.email, `guess-${i}`, `198.51.100.${i + 1}`);
      expect(res.status, `guess ${i}`).toBe(302);
      expect(res.headers.get("location")).toMatch(/error=CredentialsSignin/);
    }
    const locked = await attempt(victim.email, victim.password, "198.51.100.99");
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    const body = (await locked.json()) as { error: { reason: string; message: string } };
    expect(body.error.reason).toBe("signin_throttled");
    expect(body.error.message).toMatch(/Too many sign-in attempts\. Try again in \d+ minutes?\./);
    await expect(signIn(server.url, victim.email, victim.password)).rejects.toThrow(/sign-in failed/);
  });

  it("one address spraying wrong passwords over many accounts is locked, other addresses are not", async () => {
    const sprayer = "203.0.113.7";
    for (let i = 0; i < ADDRESS_MAX_FAILURES; i++) {
      const res = await attempt(`nobody-${i}@test.dev`, "password1", sprayer);
      expect(res.status, `spray ${i}`).toBe(302);
    }
    const alice = server.users[0];
    if (!alice) throw new Error("no alice");
    expect((await attempt(alice.email, alice.password, sprayer)).status).toBe(429);
    const elsewhere = await attempt(alice.email, alice.password, "192.0.2.10");
    expect(elsewhere.status).toBe(302);
    expect(elsewhere.headers.get("location")).not.toMatch(/error=/);
  });

  it("a success clears the account's count: a user who mistypes 4 times and then signs in is not locked later", async () => {
    const carol = server.users[2];
    if (!carol) throw new Error("no carol");
    for (let i = 0; i < ACCOUNT_MAX_FAILURES - 1; i++) await attempt(carol.email, "typo", "192.0.2.20");
    expect((await attempt(carol.email, carol.password, "192.0.2.20")).headers.get("location")).not.toMatch(/error=/);
    for (let i = 0; i < ACCOUNT_MAX_FAILURES - 1; i++) await attempt(carol.email, "typo", "192.0.2.21");
    expect((await attempt(carol.email, carol.password, "192.0.2.21")).headers.get("location")).not.toMatch(/error=/);
  });

  it("an email with no account takes as long as a wrong password for a real one (no enumeration by timing)", async () => {
    // Two accounts hashed at the cost of every new password, 3 wrong guesses each (under the limit).
    const db = createDb(server.dbUrl);
    const known = ["timed-1@test.dev", "timed-2@test.dev"];
    try {
      const passwordHash = await bcrypt.hash("the real password 1", PASSWORD_BCRYPT_COST);
      for (const email of known) await db.user.create({ data: { email, passwordHash } });
    } finally {
      await db.$disconnect();
    }
    const timed = async (email: string, address: string) => {
      const csrf = await fetch(`${server.url}/api/auth/csrf`);
      const cookie = csrf.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const started = performance.now();
      const res = await fetch(`${server.url}/api/auth/callback/credentials`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie, "x-forwarded-for": address },
        body: new URLSearchParams({ csrfToken, email, password: "a wrong guess", callbackUrl: `${server.url}/flows` }),
      });
      await res.arrayBuffer();
      expect(res.headers.get("location")).toMatch(/error=CredentialsSignin/);
      return performance.now() - started;
    };
    const samples = { unknown: [] as number[], known: [] as number[] };
    for (let i = 0; i < 6; i++) {
      samples.known.push(await timed(known[i % 2] ?? "", `198.18.1.${i + 1}`));
      samples.unknown.push(await timed(`no-account-${i}@test.dev`, `198.18.2.${i + 1}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    if (process.env.SECURITY_TALLY) process.stdout.write(`sign-in ms, unknown: ${samples.unknown.map(Math.round).join(", ")}; known: ${samples.known.map(Math.round).join(", ")}\n`);
    // Without the dummy comparison an unknown email skips bcrypt: a fraction of the time.
    expect(median(samples.unknown)).toBeGreaterThan(0.5 * median(samples.known));
  });

  it.each(["/sign-in", "/api/health", "/flows"])("%s carries a CSP that forbids framing, and nosniff and a referrer policy", async (route) => {
    const res = await fetch(`${server.url}${route}`, { redirect: "manual" });
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-powered-by")).toBeNull();
  });
});
