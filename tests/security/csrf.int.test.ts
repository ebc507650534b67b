import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, signIn } from "../http/client";
import { startServer, type TestServer } from "../http/server";
import { expectUnchanged, seedTenant, send, signedOut, stateOf, type Tenant, withHeaders } from "./attack-fixtures";
import { ATTACKS, type Attacker } from "./attack-table";

/**
 * Cross-site request forgery (docs/security.md "Cross-site requests"): a page on another
 * origin, a sibling subdomain included (same site, so `SameSite=Lax` cookies go along), makes
 * the owner's browser send a state-changing request with her session cookie. Every such
 * route refuses it with 403 and changes nothing, and refuses a body that is not JSON (what an
 * HTML form can send) with 415. The app's own same-origin requests, and API-key requests
 * from anywhere, still work.
 */

const reasonOf = (text: string) => {
  try {
    return (JSON.parse(text) as { error?: { reason?: string } }).error?.reason ?? null;
  } catch {
    return null;
  }
};

describe("cross-site requests carrying an owner's session cookie", () => {
  let s: TestServer;
  let alice: Client;
  let victim: Tenant;
  const me: Attacker = { email: "mallory@test.dev" };

  beforeAll(async () => {
    s = await startServer();
    const [a, , , v] = s.users;
    if (!a || !v) throw new Error("users");
    alice = await signIn(s.url, a.email, a.password);
    victim = await seedTenant(s, alice, a, v.id);
  }, 120_000);
  afterAll(async () => s?.stop());

  const writes = ATTACKS.filter((a) => a.method !== "GET");
  for (const [label, headers] of [
    ["another site's Origin", { origin: "https://evil.example.com" }],
    ["a sibling subdomain (Sec-Fetch-Site: same-site)", { "sec-fetch-site": "same-site", origin: "https://evil.phylactery.example.com" }],
    ["Origin: null (a sandboxed frame)", { origin: "null" }],
  ] as const) {
    it(`${label}: every state-changing route answers 403 cross_origin and nothing changes`, async () => {
      const before = await stateOf(s);
      const forged = withHeaders(alice, headers);
      const wrong: string[] = [];
      for (const attack of writes) {
        const answer = await send(forged, attack, attack.request(victim, me));
        if (answer.status !== 403 || reasonOf(answer.text) !== "cross_origin") wrong.push(`${attack.method} ${attack.route} (${attack.verb}): ${answer.status} ${answer.text.slice(0, 120)}`);
      }
      expect(wrong).toEqual([]);
      await expectUnchanged(s, before);
    });
  }

  it("a form post (text/plain) that would invite the attacker as owner gets 415; with application/json from the app's own origin it works (control)", async () => {
    const path = `/api/workspaces/${victim.workspaceId}/members`;
    const body = JSON.stringify({ email: me.email, role: "owner" });
    const before = await stateOf(s);
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const res = await alice.fetch(path, { method: "POST", headers: { "content-type": type }, body });
      expect({ type, status: res.status, reason: reasonOf(await res.text()) }).toEqual({ type, status: 415, reason: "not_json" });
    }
    await expectUnchanged(s, before);
    const own = await withHeaders(alice, { origin: s.url, "sec-fetch-site": "same-origin" }).fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(own.status, await own.clone().text()).toBeLessThan(300);
  });

  it("an API key is not a cookie: a request with a key from another origin, even as text/plain, is served", async () => {
    const made = await alice.post("/api/keys", { name: "agent inbox" });
    const { key } = (await made.json()) as { key: string };
    const keyed = withHeaders(signedOut(s.url), { authorization: `Bearer ${key}`, origin: "https://inbox.example.com", "sec-fetch-site": "cross-site" });
    const res = await keyed.fetch(`/api/workspaces/${victim.workspaceId}/memory`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: JSON.stringify({ content: "Deploys happen on Fridays." }),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const lg = await keyed.fetch("/api/langgraph/threads", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({}) });
    expect(lg.status, await lg.clone().text()).toBe(200);
  });

  it("reads are not refused: a GET with another site's Origin answers as before", async () => {
    const res = await withHeaders(alice, { origin: "https://evil.example.com", "sec-fetch-site": "cross-site" }).fetch("/api/workspaces");
    expect(res.status).toBe(200);
  });
});
