import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { type Client, signIn } from "../http/client";
import { startRun, TASK } from "../http/runs";
import { startServer, type TestServer } from "../http/server";

/**
 * The input checks at the HTTP boundary (docs/security.md "Input limits"), each tried the
 * way an attacker with an ordinary account would, against the built app: the request is
 * refused with a 4xx that names the field or the limit, and nothing is stored.
 */

interface ErrorJson {
  error: { code: string; reason: string; message: string; issues?: { path: string; message: string }[] };
}

describe("input hygiene at the boundary", () => {
  let s: TestServer;
  let alice: Client;
  let carol: Client;
  let flowId: string;
  const counts = async () => {
    const db = createDb(s.dbUrl);
    try {
      const [threads, versions, facts, approvals] = await Promise.all([db.thread.count(), db.flowVersion.count(), db.memoryFact.count(), db.approval.findMany({ select: { id: true, status: true } })]);
      return { threads, versions, facts, approvals };
    } finally {
      await db.$disconnect();
    }
  };
  const json = async (res: Response) => (await res.json()) as ErrorJson;

  beforeAll(async () => {
    s = await startServer({ LOG_LEVEL: "silent" });
    const [a, , c] = s.users;
    if (!a || !c) throw new Error("seeded users missing");
    flowId = a.flowId;
    alice = await signIn(s.url, a.email, a.password);
    carol = await signIn(s.url, c.email, c.password);
  }, 90_000);
  afterAll(async () => s?.stop());

  it("GET /api/workspaces lists the caller's workspaces (a route without dynamic segments is not refused as bad params)", async () => {
    const res = await alice.fetch("/api/workspaces");
    expect(res.status).toBe(200);
    const { workspaces } = (await res.json()) as { workspaces: unknown[] };
    expect(workspaces.length).toBeGreaterThan(0);
    expect((await fetch(`${s.url}/api/workspaces`)).status).toBe(401);
  });

  it("a task with a lone surrogate is refused with 422 naming `task`, and no thread is stored", async () => {
    const before = await counts();
    const res = await alice.fetch("/api/threads", { method: "POST", headers: { "content-type": "application/json" }, body: `{"flowId":"${flowId}","task":"Summarize \\ud800 notes"}` });
    expect(res.status).toBe(422);
    const body = await json(res);
    expect(body.error.message).toMatch(/^task: .*lone UTF-16 surrogate/);
    expect(body.error.issues).toEqual([{ path: "task", message: expect.stringContaining("surrogate") }]);
    expect(await counts()).toEqual(before);
  });

  it("a lone surrogate in a memory fact's tag or in an object key is refused with 422 naming where", async () => {
    const ws = ((await (await alice.fetch("/api/workspaces")).json()) as { workspaces: { id: string }[] }).workspaces[0]?.id;
    const before = await counts();
    const tag = await alice.fetch(`/api/workspaces/${ws}/memory`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"content":"fine","tags":["ok","\\udfff"]}' });
    expect(tag.status).toBe(422);
    expect((await json(tag)).error.issues?.[0]?.path).toBe("tags.1");
    const key = await alice.fetch(`/api/workspaces/${ws}/memory`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"content":"fine","\\ud800":1}' });
    expect(key.status).toBe(422);
    expect(await counts()).toEqual(before);
  });

  it("an approver's edit with arguments nested 10,000 deep is refused with 422 before any walk, and the approval stays pending", async () => {
    const { threadId, approval } = await startRun(alice, flowId);
    const deep = `${"[".repeat(10_000)}${"]".repeat(10_000)}`;
    const body = `{"input":{"kind":"decision","decision":"edit","approvalId":"${approval.approvalId}","token":"${approval.token}","argsHash":"${approval.argsHash}","args":{"path":"summary.md","content":${deep}}}}`;
    const res = await carol.fetch(`/api/threads/${threadId}/stream`, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(res.status).toBe(422);
    const err = await json(res);
    expect(err.error.reason).toBe("json_too_deep");
    expect(err.error.message).toContain("64 levels");
    expect((await counts()).approvals.find((a) => a.id === approval.approvalId)?.status).toBe("pending");
    // The same edit with ordinary arguments is still judged: the boundary took nothing else away.
    const ok = await carol.post(`/api/threads/${threadId}/stream`, {
      input: { kind: "decision", decision: "reject", approvalId: approval.approvalId, token: approval.token, argsHash: approval.argsHash, comment: "no" },
    });
    expect(ok.status).toBe(200);
    await ok.body?.cancel();
  });

  it("a body one byte over 1 MB is refused with 413 naming the limit; a flow save may be larger, up to 5 MB", async () => {
    const before = await counts();
    const over = await alice.post("/api/threads", { flowId, task: TASK, pad: "x".repeat(1_048_576) });
    expect(over.status).toBe(413);
    expect((await json(over)).error.message).toContain("limit of 1 MB (1048576 bytes)");
    // Facts are left out: an earlier run's after-run hooks may propose some meanwhile.
    const { facts: _before, ...rows } = before;
    const { facts: _after, ...now } = await counts();
    expect(now).toEqual(rows);
    // A 2 MB flow document (padded with JSON whitespace) saves; 6 MB does not.
    const doc = `{"message":"big","document":${JSON.stringify(workspaceAssistant)}${" ".repeat(2_000_000)}}`;
    const saved = await alice.fetch(`/api/flows/${flowId}/versions`, { method: "POST", headers: { "content-type": "application/json" }, body: doc });
    expect(saved.status).toBe(201);
    const huge = await alice.fetch(`/api/flows/${flowId}/versions`, { method: "POST", headers: { "content-type": "application/json" }, body: `${doc}${" ".repeat(4_500_000)}` });
    expect(huge.status).toBe(413);
    expect((await json(huge)).error.message).toContain("5 MB");
  });

  it("a JSON body with a __proto__ key is refused with 422 naming it, wherever it is", async () => {
    const res = await alice.fetch("/api/threads", { method: "POST", headers: { "content-type": "application/json" }, body: `{"flowId":"${flowId}","task":"t","__proto__":{"isAdmin":true}}` });
    expect(res.status).toBe(422);
    expect((await json(res)).error.message).toMatch(/^__proto__: /);
  });

  it("a form post or a multipart upload to a JSON route is refused with 415, and bytes that are not UTF-8 with 400", async () => {
    const form = await alice.fetch("/api/threads", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `flowId=${flowId}&task=t` });
    expect(form.status).toBe(415);
    const bytes = await alice.fetch("/api/threads", { method: "POST", headers: { "content-type": "application/json" }, body: new Uint8Array([0x7b, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x3a, 0x31, 0x7d]) });
    expect(bytes.status).toBe(400);
    expect((await json(bytes)).error.reason).toBe("invalid_utf8");
  });

  it("a path whose % escapes are not UTF-8 gets 400, not Next.js's 500, on API routes and pages", async () => {
    for (const p of ["/api/threads/%ED%A0%80/memory", "/api/threads/%zz/stream", "/api/auth/%", "/threads/%C0%AF", "/api/flows/%/versions"]) {
      const res = await alice.fetch(p);
      expect(res.status, p).toBe(400);
    }
  });

  it("URL fields that do not parse are a 422 naming the field, not a crash in a refinement", async () => {
    const ws = ((await (await alice.fetch("/api/workspaces")).json()) as { workspaces: { id: string }[] }).workspaces[0]?.id;
    for (const u of ["http://[", "http://%", "javascript:alert(1)", "http://%zz/"]) {
      const provider = await alice.fetch("/api/settings/providers", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ provider: "openai-compatible", baseUrl: u, model: "m" }),
      });
      expect(provider.status, u).toBe(422);
      expect((await json(provider)).error.issues?.[0]?.path).toBe("baseUrl");
      const mcp = await alice.post(`/api/workspaces/${ws}/mcp`, { name: "bad-url", transport: "http", url: u });
      expect(mcp.status, u).toBe(422);
      expect((await json(mcp)).error.issues?.some((i) => i.path === "url")).toBe(true);
    }
  });
});
