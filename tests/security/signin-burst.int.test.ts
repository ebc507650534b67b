import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MAX_FAILURES } from "@/lib/auth/throttle";
import { testDialect } from "@/lib/db/test-db";
import { type Cluster, startCluster } from "../cluster/cluster";

/**
 * A concurrent burst of sign-in attempts for one account (docs/security.md "Sign-in"), sent
 * at once to two server instances on one database (SQLite, or PostgreSQL with
 * TEST_DATABASE_URL): each attempt reserves its place in the database before its password
 * is checked, so however the burst is split, at most 5 passwords are checked; the others are
 * refused as throttled, the right password among them.
 */

/** How one attempt ended. */
type Outcome = "throttled" | "wrong" | "signed-in" | "other";

/** An attempt ready to send: Auth.js's CSRF token and cookie, fetched beforehand. */
interface Prepared {
  base: string;
  cookie: string;
  csrfToken: string;
}

async function prepare(base: string): Promise<Prepared> {
  const res = await fetch(`${base}/api/auth/csrf`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  return { base, cookie, csrfToken };
}

async function send(p: Prepared, email: string, password: string, address: string): Promise<Outcome> {
  const res = await fetch(`${p.base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: p.cookie, "x-forwarded-for": address },
    body: new URLSearchParams({ csrfToken: p.csrfToken, email, password, callbackUrl: `${p.base}/flows` }),
  });
  await res.arrayBuffer();
  if (res.status === 429) return "throttled";
  const location = res.headers.get("location") ?? "";
  if (res.status !== 302) return "other";
  if (/code=signin_throttled/.test(location)) return "throttled";
  if (/error=/.test(location)) return "wrong";
  return "signed-in";
}

describe("a concurrent sign-in burst over two server instances", () => {
  let c: Cluster;
  beforeAll(async () => {
    c = await startCluster({ webs: 2, workers: 0, database: testDialect() });
  }, 240_000);
  afterAll(async () => c?.stop());

  it.each([0, 1, 2])("30 attempts at once for one account, the right password 13th: at most 5 passwords are checked (account %i)", async (n) => {
    const victim = c.users[n];
    if (!victim) throw new Error("users");
    const bases = c.webs.map((w) => w.url ?? "");
    const prepared = await Promise.all(Array.from({ length: 30 }, (_, i) => prepare(bases[i % bases.length] ?? "")));
    const outcomes = await Promise.all(prepared.map((p, i) => send(p, victim.email, i === 12 ? victim.password : `guess-${i}`, `198.51.${n}.${i + 1}`)));
    const checked = outcomes.filter((o) => o === "wrong" || o === "signed-in").length;
    if (process.env.SECURITY_TALLY) process.stdout.write(`burst ${n}: 30 attempts, ${checked} passwords checked, right password (13th): ${outcomes[12]}\n`);
    expect(outcomes.filter((o) => o === "other")).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(1);
    expect(checked).toBeLessThanOrEqual(ACCOUNT_MAX_FAILURES);
  });
});
