import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { type Client, signIn } from "./client";
import { startRun, TASK } from "./runs";
import { startServer, type TestServer } from "./server";

/**
 * API keys against the built app (docs/api.md "API keys"): a key made in a session works as
 * `Authorization: Bearer` and `x-api-key` on the JSON routes, with its user's roles; a
 * garbage, unknown or revoked key is 401 `invalid_api_key` even next to a valid session
 * cookie; keys cannot manage keys; a key made for one workspace answers 404 for the others.
 */

type Header = "bearer" | "x-api-key";

/** A client that sends `key` (and, when given, a session client's cookies too). */
function keyClient(base: string, key: string, header: Header = "bearer", session?: Client): Client {
  const auth: Record<string, string> = header === "bearer" ? { authorization: `Bearer ${key}` } : { "x-api-key": key };
  const merged = (init: RequestInit) => ({ ...((init.headers as Record<string, string> | undefined) ?? {}), ...auth });
  const client: Client = {
    fetch: (p, init = {}) => (session ? session.fetch(p, { ...init, headers: merged(init) }) : fetch(`${base}${p}`, { ...init, redirect: "manual", headers: merged(init) })),
    post: (p, body) => client.fetch(p, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
    cookie: () => session?.cookie() ?? "",
  };
  return client;
}

const errorOf = async (res: Response) => ((await res.json()) as { error: { reason: string; message: string } }).error;

interface Made {
  id: string;
  name: string;
  prefix: string;
  workspaceId: string | null;
  createdAt: string;
  key: string;
}

describe("API keys over HTTP", () => {
  let s: TestServer;
  let alice: Client;
  let bob: Client;
  let carol: Client;
  let victor: Client;
  const ws = { alice: "", bob: "" };
  let bobsRun: { threadId: string; approvalId: string };

  const make = async (c: Client, body: Record<string, unknown>): Promise<Made> => {
    const res = await c.post("/api/keys", body);
    expect(res.status, await res.clone().text()).toBe(201);
    return (await res.json()) as Made;
  };

  beforeAll(async () => {
    s = await startServer();
    const [a, b, c, v] = s.users;
    if (!a || !b || !c || !v) throw new Error("users");
    [alice, bob, carol, victor] = await Promise.all([signIn(s.url, a.email, a.password), signIn(s.url, b.email, b.password), signIn(s.url, c.email, c.password), signIn(s.url, v.email, v.password)]);
    const db = createDb(s.dbUrl);
    try {
      ws.alice = (await db.flow.findUniqueOrThrow({ where: { id: a.flowId } })).workspaceId;
      ws.bob = (await db.flow.findUniqueOrThrow({ where: { id: b.flowId } })).workspaceId;
      // Carol belongs to two workspaces: approver in alice's (seeded) and in bob's.
      await db.membership.create({ data: { workspaceId: ws.bob, userId: c.id, role: "approver" } });
    } finally {
      await db.$disconnect();
    }
    const run = await startRun(bob, b.flowId);
    bobsRun = { threadId: run.threadId, approvalId: run.approval.approvalId };
  }, 120_000);
  afterAll(async () => s?.stop());

  it("POST /api/keys shows the key once (no-store); GET lists its prefix, never the key", async () => {
    const res = await alice.post("/api/keys", { name: "  CI  " });
    expect(res.status).toBe(201);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const made = (await res.json()) as Made;
    expect(made).toMatchObject({ name: "CI", workspaceId: null, prefix: made.key.slice(0, 12) });
    expect(made.key).toMatch(/^phy_[A-Za-z0-9_-]{43}$/);
    const listed = await alice.fetch("/api/keys");
    const text = await listed.text();
    expect(listed.status).toBe(200);
    expect(text).toContain(made.prefix);
    expect(text).not.toContain(made.key);
    expect(text).not.toContain('"hash"');
  });

  it("a key works as Authorization: Bearer and as x-api-key, as its user", async () => {
    const { key } = await make(alice, { name: "Both headers" });
    for (const header of ["bearer", "x-api-key"] as const) {
      const res = await keyClient(s.url, key, header).fetch("/api/workspaces");
      expect(res.status, header).toBe(200);
      const { workspaces } = (await res.json()) as { workspaces: { id: string; role: string }[] };
      expect(workspaces).toEqual([expect.objectContaining({ id: ws.alice, role: "owner" })]);
    }
    // It runs a flow to its approval like the session does, and its last use is recorded.
    const { approval } = await startRun(keyClient(s.url, key), s.users[0]?.flowId ?? "");
    expect(approval.token).toMatch(/\S{20,}/);
    const keys = ((await (await alice.fetch("/api/keys")).json()) as { keys: { name: string; lastUsedAt: string | null }[] }).keys;
    expect(keys.find((k) => k.name === "Both headers")?.lastUsedAt).not.toBeNull();
  });

  it("no key and no session: 401 signed_out; garbage or unknown keys: 401 invalid_api_key", async () => {
    const anon = await fetch(`${s.url}/api/approvals`);
    expect(anon.status).toBe(401);
    expect((await errorOf(anon)).reason).toBe("signed_out");
    for (const bad of ["garbage", "", `phy_${"A".repeat(43)}`, `Bearer phy_${"B".repeat(43)}`]) {
      const res = await keyClient(s.url, bad).fetch("/api/approvals");
      expect(res.status, bad).toBe(401);
      expect((await errorOf(res)).reason).toBe("invalid_api_key");
    }
    const xBad = await keyClient(s.url, "nope", "x-api-key").fetch("/api/approvals");
    expect(xBad.status).toBe(401);
  });

  it("a revoked key is 401 invalid_api_key, even beside a valid session cookie (no fallback)", async () => {
    const { id, key } = await make(alice, { name: "Soon revoked" });
    expect((await keyClient(s.url, key).fetch("/api/approvals")).status).toBe(200);
    const revoked = await alice.fetch(`/api/keys/${id}`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ revoked: true });
    // Idempotent.
    expect((await alice.fetch(`/api/keys/${id}`, { method: "DELETE" })).status).toBe(200);
    for (const c of [keyClient(s.url, key), keyClient(s.url, key, "x-api-key", alice)]) {
      const res = await c.fetch("/api/approvals");
      expect(res.status).toBe(401);
      const err = await errorOf(res);
      expect(err.reason).toBe("invalid_api_key");
      expect(err.message).toContain("Settings");
    }
    const keys = ((await (await alice.fetch("/api/keys")).json()) as { keys: { id: string; revokedAt: string | null }[] }).keys;
    expect(keys.find((k) => k.id === id)?.revokedAt).not.toBeNull();
  });

  it("keys cannot manage keys: 403 session_required, and no key is made or revoked", async () => {
    const { id, key } = await make(alice, { name: "Cannot mint" });
    const k = keyClient(s.url, key);
    const before = ((await (await alice.fetch("/api/keys")).json()) as { keys: unknown[] }).keys.length;
    for (const res of [await k.post("/api/keys", { name: "Minted" }), await k.fetch("/api/keys"), await k.fetch(`/api/keys/${id}`, { method: "DELETE" })]) {
      expect(res.status).toBe(403);
      expect((await errorOf(res)).reason).toBe("session_required");
    }
    const after = ((await (await alice.fetch("/api/keys")).json()) as { keys: { id: string; revokedAt: string | null }[] }).keys;
    expect(after).toHaveLength(before);
    expect(after.find((x) => x.id === id)?.revokedAt).toBeNull();
  });

  it("a key for a workspace the user is not in is 404; another user's key cannot be revoked (404)", async () => {
    const res = await alice.post("/api/keys", { name: "Into bob's", workspaceId: ws.bob });
    expect(res.status).toBe(404);
    expect((await errorOf(res)).reason).toBe("workspace_not_found");
    const bobs = await make(bob, { name: "Bob's" });
    expect((await alice.fetch(`/api/keys/${bobs.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await keyClient(s.url, bobs.key).fetch("/api/workspaces")).status).toBe(200);
  });

  it("a viewer's key sees but cannot start a run (403 role_forbidden)", async () => {
    const { key } = await make(victor, { name: "Viewer" });
    const k = keyClient(s.url, key);
    expect((await k.fetch("/api/approvals")).status).toBe(200);
    const res = await k.post("/api/threads", { flowId: s.users[0]?.flowId, task: TASK });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).reason).toBe("role_forbidden");
  });

  it("a key scoped to one workspace sees that workspace only and 404s on the user's other one", async () => {
    const scoped = keyClient(s.url, (await make(carol, { name: "Alice's only", workspaceId: ws.alice })).key);
    const all = keyClient(s.url, (await make(carol, { name: "Everywhere" })).key);
    const bobFlow = s.users[1]?.flowId ?? "";
    const paths = [`/api/approvals/${bobsRun.approvalId}`, `/api/flows/${bobFlow}/versions`, `/api/threads/${bobsRun.threadId}/checkpoints`, `/api/workspaces/${ws.bob}/members`];
    // Control: carol's unscoped key reaches bob's workspace.
    for (const p of paths) expect((await all.fetch(p)).status, p).toBe(200);
    const allApprovals = await (await all.fetch("/api/approvals?status=all")).text();
    expect(allApprovals).toContain(bobsRun.approvalId);
    // The scoped key: 404 on every one of bob's things, and his approval is not listed.
    for (const p of paths) expect((await scoped.fetch(p)).status, p).toBe(404);
    const listed = (await (await scoped.fetch("/api/approvals?status=all")).json()) as { items?: { approvalId: string }[] } & Record<string, unknown>;
    expect(JSON.stringify(listed)).not.toContain(bobsRun.approvalId);
    const { workspaces } = (await (await scoped.fetch("/api/workspaces")).json()) as { workspaces: { id: string }[] };
    expect(workspaces.map((w) => w.id)).toEqual([ws.alice]);
    const run = await scoped.post("/api/threads", { flowId: bobFlow, task: TASK });
    expect(run.status).toBe(404);
    // Its own workspace works: it starts a run on alice's flow.
    const { threadId } = await startRun(scoped, s.users[0]?.flowId ?? "");
    expect((await scoped.fetch(`/api/threads/${threadId}/checkpoints`)).status).toBe(200);
  });
});
