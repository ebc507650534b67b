import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Client, signIn } from "../http/client";
import { startServer, type TestServer } from "../http/server";
import { send, signedOut, stateOf, withHeaders } from "./attack-fixtures";
import { ATTACKS, type Attack, GHOST } from "./attack-table";
import { diffSnapshots } from "./db-snapshot";

/**
 * What a key made for one workspace may do on the routes of the account and the instance
 * (docs/security.md "API key scope"): alice, instance admin (the first account) and owner of
 * her workspace, makes a key scoped to it. Routes that act beyond any one workspace (model
 * providers, which serve the runs of every workspace; admin) refuse it with 403 and change
 * nothing; her key made for every workspace, and her session, still may.
 */

const ACCOUNT_NEEDS = new Set(["self", "admin", "invitee", "key-owner"]);
const reasonOf = (text: string) => {
  try {
    return (JSON.parse(text) as { error?: { reason?: string } }).error?.reason ?? null;
  } catch {
    return null;
  }
};

describe("a workspace-scoped API key on account-level and admin routes", () => {
  let s: TestServer;
  let alice: Client;
  let scoped: Client;
  let unscoped: Client;
  let workspaceId = "";
  let scopedKeyId = "";

  beforeAll(async () => {
    s = await startServer();
    const a = s.users[0];
    if (!a) throw new Error("users");
    alice = await signIn(s.url, a.email, a.password);
    const flows = await alice.fetch(`/api/workspaces`);
    workspaceId = ((await flows.json()) as { workspaces: { id: string }[] }).workspaces[0]?.id ?? "";
    const make = async (body: Record<string, unknown>) => {
      const res = await alice.post("/api/keys", body);
      expect(res.status).toBe(201);
      return (await res.json()) as { id: string; key: string };
    };
    const key = await make({ name: "scoped", workspaceId });
    scopedKeyId = key.id;
    scoped = withHeaders(signedOut(s.url), { authorization: `Bearer ${key.key}` });
    unscoped = withHeaders(signedOut(s.url), { authorization: `Bearer ${(await make({ name: "every workspace" })).key}` });
  }, 120_000);
  afterAll(async () => s?.stop());

  it("every route of the account or the instance says what a scoped key gets", () => {
    expect(ATTACKS.filter((a) => ACCOUNT_NEEDS.has(a.need) && !a.scopedKey).map((a) => `${a.method} ${a.route}`)).toEqual([]);
  });

  const expected: Record<NonNullable<Attack["scopedKey"]>, string | null> = { refused: "scoped_key_refused", session: "session_required", scoped: null, same: null };
  for (const attack of ATTACKS.filter((a) => a.scopedKey)) {
    const reason = expected[attack.scopedKey ?? "same"];
    it(`a scoped key ${reason ? `is refused (${reason})` : "is answered"}: ${attack.verb} (${attack.method} ${attack.route})`, async () => {
      const before = await stateOf(s);
      const answer = await send(scoped, attack, attack.request({ ...GHOST, workspaceId }, { email: "alice@test.dev" }));
      if (reason) {
        expect({ status: answer.status, reason: reasonOf(answer.text) }, answer.text).toEqual({ status: 403, reason });
        // Nothing changed but the key's own last use (written at most once a minute).
        const changed = diffSnapshots(before, await stateOf(s)).filter((d) => !(d.startsWith("ApiKey ") && d.includes(scopedKeyId)));
        expect(changed).toEqual([]);
      } else {
        expect(answer.status, answer.text).toBeLessThan(500);
        expect(reasonOf(answer.text)).not.toBe("scoped_key_refused");
      }
    });
  }

  it("a scoped key cannot point the account's model provider elsewhere; a key for every workspace can (control)", async () => {
    const body = { provider: "openai-compatible", baseUrl: "https://collector.example.com/v1", apiKey: "sk-test-0000000000000000", model: "stolen", isDefault: true };
    const req = (c: Client) => c.fetch("/api/settings/providers", { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const refused = await req(scoped);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { reason: string } }).error.reason).toBe("scoped_key_refused");
    expect(JSON.stringify(await (await alice.fetch("/api/settings/providers")).json())).not.toContain("collector.example.com");
    const allowed = await req(unscoped);
    expect(allowed.status, await allowed.clone().text()).toBe(200);
    expect(JSON.stringify(await (await alice.fetch("/api/settings/providers")).json())).toContain("collector.example.com");
  });

  it("an admin's scoped key neither lists the instance nor creates accounts; the admin's key for every workspace does (control)", async () => {
    expect((await scoped.fetch("/api/admin/users")).status).toBe(403);
    const account = { email: "mallory@test.dev", password: "correct horse battery staple" };
    expect((await scoped.post("/api/admin/users", account)).status).toBe(403);
    expect((await unscoped.fetch("/api/admin/users")).status).toBe(200);
    expect((await unscoped.post("/api/admin/users", account)).status).toBe(201);
  });
});
