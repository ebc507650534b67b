import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";

/**
 * The route wrapper's `need` (lib/http/with-user.ts, lib/auth/access.ts; docs/security.md
 * "Roles and powers"): it resolves the resource and the caller's role once, answers 404 for a
 * non-member exactly as for a missing resource, 403 naming the missing capability, and hands
 * the handler the access. The session and the database are stand-ins: a signed-in user and
 * in-memory rows, with every query counted.
 */

const rows = {
  threads: new Map<string, { id: string; userId: string; flow: { id: string; workspaceId: string }; flowVersion: { id: string } }>(),
  flows: new Map<string, { id: string; workspaceId: string }>(),
  approvals: new Map<string, { id: string; threadId: string; thread: { flow: { workspaceId: string } } }>(),
  facts: new Map<string, { id: string; workspaceId: string }>(),
  members: new Map<string, string>(),
};
const queries: string[] = [];
/** A findUnique by id on `rows`, counted as `name`. */
const byId =
  <T>(name: string, table: Map<string, T>) =>
  async ({ where }: { where: { id: string } }) => {
    queries.push(name);
    return table.get(where.id) ?? null;
  };
const fakeDb = {
  thread: { findUnique: byId("thread", rows.threads) },
  flow: { findUnique: byId("flow", rows.flows) },
  approval: { findUnique: byId("approval", rows.approvals) },
  memoryFact: { findUnique: byId("fact", rows.facts) },
  membership: {
    /** The caller's membership of the workspace holding an approval (what the wrapper asks for an approval). */
    findFirst: async ({ where }: { where: { userId: string; workspace: { flows: { some: { threads: { some: { approvals: { some: { id: string } } } } } } } } }) => {
      queries.push("membership");
      const approval = rows.approvals.get(where.workspace.flows.some.threads.some.approvals.some.id);
      const workspaceId = approval?.thread.flow.workspaceId;
      const role = workspaceId ? rows.members.get(`${workspaceId}/${where.userId}`) : undefined;
      return role && workspaceId ? { workspaceId, role } : null;
    },
    findUnique: async ({ where }: { where: { workspaceId_userId: { workspaceId: string; userId: string } } }) => {
      queries.push("membership");
      const role = rows.members.get(`${where.workspaceId_userId.workspaceId}/${where.workspaceId_userId.userId}`);
      return role ? { role } : null;
    },
  },
};

vi.mock("../auth/auth", () => ({ auth: async () => ({ user: { id: "u1", email: "u1@test.dev" } }) }));
vi.mock("../db/client", () => ({ db: () => fakeDb }));

const { withUser } = await import("./with-user");

const Params = z.object({ threadId: z.string() });
const get = (path = "/api/x") => new Request(`http://localhost${path}`);
const ctx = (params: Record<string, string>) => ({ params: Promise.resolve(params) });

beforeEach(() => {
  queries.length = 0;
  for (const m of Object.values(rows)) m.clear();
  rows.flows.set("f1", { id: "f1", workspaceId: "w1" });
  rows.threads.set("t1", { id: "t1", userId: "u1", flow: { id: "f1", workspaceId: "w1" }, flowVersion: { id: "v1" } });
  rows.threads.set("t2", { id: "t2", userId: "u2", flow: { id: "f2", workspaceId: "w2" }, flowVersion: { id: "v2" } });
  rows.approvals.set("a1", { id: "a1", threadId: "t1", thread: { flow: { workspaceId: "w1" } } });
  rows.facts.set("m1", { id: "m1", workspaceId: "w1" });
});

describe("withUser need", () => {
  it("hands the handler the thread and the role, resolved once (one thread read, one membership read)", async () => {
    rows.members.set("w1/u1", "viewer");
    const handler = vi.fn(async (_req: Request, c: { access: { role: string; workspaceId: string; userId: string; thread: { id: string } } }) =>
      Response.json({ role: c.access.role, workspaceId: c.access.workspaceId, thread: c.access.thread.id }),
    );
    const route = withUser({ params: Params, need: { capability: "see", thread: "threadId" } }, handler);
    const res = await route(get(), ctx({ threadId: "t1" }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ role: "viewer", workspaceId: "w1", thread: "t1" });
    expect(handler).toHaveBeenCalledTimes(1);
    expect(handler.mock.calls[0]?.[1].access.userId).toBe("u1");
    expect(queries).toEqual(["thread", "membership"]);
  });

  it("answers a non-member 404 exactly as for a thread that does not exist, and never calls the handler", async () => {
    rows.members.set("w1/u1", "owner");
    const handler = vi.fn(async () => new Response("reached"));
    const route = withUser({ params: Params, need: { capability: "see", thread: "threadId" } }, handler);
    const other = await route(get(), ctx({ threadId: "t2" }));
    const missing = await route(get(), ctx({ threadId: "t9" }));
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ error: { code: "not_found", reason: "thread_not_found", message: "No thread t2." } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: { code: "not_found", reason: "thread_not_found", message: "No thread t9." } });
    expect(handler).not.toHaveBeenCalled();
  });

  it("answers a viewer 403 naming the capability it lacks, or the route's own refusal", async () => {
    rows.members.set("w1/u1", "viewer");
    const handler = vi.fn(async () => new Response("reached"));
    const edit = withUser({ params: z.object({ flowId: z.string() }), need: { capability: "edit", flow: "flowId" } }, handler);
    const res = await edit(get(), ctx({ flowId: "f1" }));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: { code: "forbidden", reason: "role_forbidden", message: "Your role in this workspace is viewer; it cannot edit flows. Ask an owner for another role." },
    });
    const manage = withUser({ params: z.object({ workspaceId: z.string() }), need: { capability: "manage", refusal: "only owners manage its webhooks.", workspace: "workspaceId" } }, handler);
    expect(await (await manage(get(), ctx({ workspaceId: "w1" }))).json()).toMatchObject({ error: { message: "Your role in this workspace is viewer; only owners manage its webhooks." } });
    expect(handler).not.toHaveBeenCalled();
  });

  it("lets an approver run and refuses it what only owners may do", async () => {
    rows.members.set("w1/u1", "approver");
    const route = (capability: "run" | "manage") => withUser({ params: Params, need: { capability, thread: "threadId" } }, async (_req, { access }) => Response.json({ role: access.role }));
    expect((await route("run")(get(), ctx({ threadId: "t1" }))).status).toBe(200);
    expect((await route("manage")(get(), ctx({ threadId: "t1" }))).status).toBe(403);
  });

  it("finds a workspace, a flow named in the body, an approval and a fact, each with its own 404", async () => {
    rows.members.set("w1/u1", "owner");
    const seen: string[] = [];
    const ok = async (_req: Request, c: { access: { workspaceId: string } }) => {
      seen.push(c.access.workspaceId);
      return new Response(null, { status: 204 });
    };
    const ws = withUser({ params: z.object({ workspaceId: z.string() }), need: { capability: "manage", workspace: "workspaceId" } }, ok);
    const byBody = withUser({ body: z.object({ flowId: z.string() }), need: { capability: "run", flow: { body: "flowId" } } }, ok);
    const approval = withUser({ params: z.object({ approvalId: z.string() }), need: { capability: "see", approval: "approvalId" } }, ok);
    const fact = withUser({ params: z.object({ factId: z.string() }), need: { capability: "remember", fact: "factId" } }, ok);
    const post = (body: unknown) =>
      new Request("http://localhost/api/x", { method: "POST", headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" }, body: JSON.stringify(body) });
    expect((await ws(get(), ctx({ workspaceId: "w1" }))).status).toBe(204);
    expect((await byBody(post({ flowId: "f1" }), ctx({}))).status).toBe(204);
    expect((await approval(get(), ctx({ approvalId: "a1" }))).status).toBe(204);
    expect((await fact(get(), ctx({ factId: "m1" }))).status).toBe(204);
    expect(seen).toEqual(["w1", "w1", "w1", "w1"]);
    const reasons = async (res: Response) => ((await res.json()) as { error: { reason: string } }).error.reason;
    expect(await reasons(await ws(get(), ctx({ workspaceId: "w2" })))).toBe("workspace_not_found");
    expect(await reasons(await byBody(post({ flowId: "f2" }), ctx({})))).toBe("flow_not_found");
    expect(await reasons(await approval(get(), ctx({ approvalId: "a2" })))).toBe("approval_not_found");
    expect(await reasons(await fact(get(), ctx({ factId: "m2" })))).toBe("fact_not_found");
  });

  it("resolves nothing for a route that declares no need", async () => {
    const route = withUser({}, async (_req, { access }) => Response.json({ access: access ?? null }));
    expect(await (await route(get(), ctx({}))).json()).toEqual({ access: null });
    expect(queries).toEqual([]);
  });
});
