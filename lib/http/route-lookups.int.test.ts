import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import type { Db } from "../db/client";
import { createFlow } from "../db/flows";
import { createTestDb, type TestDb } from "../db/test-db";
import { addMember } from "../db/test-members";
import { createThread } from "../db/threads";
import { personalWorkspace } from "../db/workspaces";

/**
 * How often one request through the route wrapper reads the resource and the caller's role
 * (docs/security.md "Roles and powers"): the wrapper resolves them once (lib/http/with-user.ts
 * `need`) and the services reuse that access, so every request below looks the caller's
 * membership up once and reads its thread once. The route handlers run as Next.js calls
 * them, on a real database with every query counted; the session is a stand-in.
 * LOOKUPS_PRINT=1 prints the counts (the figures of docs/security.md).
 */

let t: TestDb;
/**
 * Each query of the request: `Model.operation`, whether it asks for one user's memberships (a
 * role lookup), and whether it reads a thread with its flow (resolving the thread, as against
 * reading its lease column).
 */
const ops: { op: string; role: boolean; thread: boolean }[] = [];
const session = { user: { id: "", email: "" } };
let traced: Db;

vi.mock("@/lib/auth/auth", () => ({ auth: async () => session }));
// Accepted runs stay queued: no worker runs them here (only the accept path is counted).
vi.mock("@/lib/runs/process-worker", () => ({ dispatchRun: async () => undefined }));
vi.mock("@/lib/db/client", async (importOriginal) => ({ ...(await importOriginal<typeof import("../db/client")>()), db: () => traced }));

const ids = { owner: "", viewer: "", ws: "", flow: "", thread: "", approval: "", idle1: "", idle2: "" };

beforeAll(async () => {
  t = await createTestDb();
  traced = t.db.$extends({
    query: {
      $allModels: {
        $allOperations({ model, operation, args, query }) {
          const { where = {}, include = {} } = args as { where?: Record<string, unknown>; include?: Record<string, unknown> };
          ops.push({ op: `${model}.${operation}`, role: model === "Membership" && ("workspaceId_userId" in where || "userId" in where), thread: model === "Thread" && "flow" in include });
          return query(args);
        },
      },
    },
  }) as unknown as Db;
  const mk = (name: string) => t.db.user.create({ data: { email: `${name}@test.dev`, name } }).then((u) => u.id);
  ids.owner = await mk("owner");
  ids.viewer = await mk("viewer");
  ids.ws = await personalWorkspace(t.db, ids.owner);
  await addMember(t.db, ids.owner, ids.ws, { email: "viewer@test.dev", role: "viewer" });
  ids.flow = (await createFlow(t.db, ids.owner, workspaceAssistant)).id;
  ids.thread = (await createThread(t.db, ids.owner, ids.flow, "Read notes.md")).id;
  ids.idle1 = (await createThread(t.db, ids.owner, ids.flow, "Read notes.md")).id;
  ids.idle2 = (await createThread(t.db, ids.owner, ids.flow, "Read notes.md")).id;
  ids.approval = "ap_lookups";
  await t.db.approval.create({
    data: {
      id: ids.approval,
      threadId: ids.thread,
      userId: ids.owner,
      toolName: "write_file",
      toolCallId: "c1",
      canonicalArgs: '{"content":"x","path":"a.md"}',
      argsHash: "0".repeat(64),
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
});

afterAll(async () => t?.cleanup());

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Calls a route handler as `who` and returns the status and the reads of each kind it made. */
async function call(who: "owner" | "viewer", handler: Handler, params: Record<string, string>, init?: { method: string; body: unknown }) {
  session.user = { id: ids[who], email: `${who}@test.dev` };
  const req = new Request("http://localhost/api/x", {
    method: init?.method ?? "GET",
    ...(init ? { headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" }, body: JSON.stringify(init.body) } : {}),
  });
  ops.length = 0;
  const res = await handler(req, { params: Promise.resolve(params) });
  // A run's stream follows the run until it ends: only what the request did before answering counts.
  const streaming = (res.headers.get("content-type") ?? "").includes("event-stream") || res.headers.has("x-run-id");
  if (streaming) await res.body?.cancel();
  else await res.arrayBuffer();
  const count = (prefix: string) => ops.filter((o) => o.op.startsWith(prefix)).length;
  return { status: res.status, role: ops.filter((o) => o.role).length, thread: ops.filter((o) => o.thread).length, flow: count("Flow.find"), approval: count("Approval.find") };
}

describe("one request resolves its resource and the caller's role once", () => {
  it("looks the caller's role up once per request, and reads the thread once", async () => {
    const checkpoints = (await import("@/app/api/threads/[threadId]/checkpoints/route")).GET as unknown as Handler;
    const memory = (await import("@/app/api/threads/[threadId]/memory/route")).GET as unknown as Handler;
    const approval = (await import("@/app/api/approvals/[approvalId]/route")).GET as unknown as Handler;
    const versions = await import("@/app/api/flows/[flowId]/versions/route");
    const members = (await import("@/app/api/workspaces/[workspaceId]/members/route")).GET as unknown as Handler;
    const secrets = (await import("@/app/api/workspaces/[workspaceId]/secrets/route")).GET as unknown as Handler;
    const fork = (await import("@/app/api/threads/[threadId]/fork/route")).POST as unknown as Handler;
    const stream = (await import("@/app/api/threads/[threadId]/stream/route")).POST as unknown as Handler;
    const platformRuns = (await import("@/app/api/langgraph/threads/[threadId]/runs/route")).POST as unknown as Handler;
    const results = {
      "GET threads/:id/checkpoints": await call("viewer", checkpoints, { threadId: ids.thread }),
      "GET threads/:id/memory": await call("viewer", memory, { threadId: ids.thread }),
      "GET approvals/:id": await call("viewer", approval, { approvalId: ids.approval }),
      "GET flows/:id/versions": await call("viewer", versions.GET as unknown as Handler, { flowId: ids.flow }),
      "POST flows/:id/versions": await call("owner", versions.POST as unknown as Handler, { flowId: ids.flow }, { method: "POST", body: { document: workspaceAssistant, message: "Again" } }),
      "GET workspaces/:id/members": await call("viewer", members, { workspaceId: ids.ws }),
      "GET workspaces/:id/secrets": await call("viewer", secrets, { workspaceId: ids.ws }),
      "POST threads/:id/fork (viewer, refused)": await call("viewer", fork, { threadId: ids.thread }, { method: "POST", body: { checkpointId: "1f1e68c6-7193-6070-8000-ffd83c9f9246" } }),
      "POST threads/:id/stream (a message)": await call("owner", stream, { threadId: ids.idle1 }, { method: "POST", body: { input: { kind: "message", text: "Read notes.md" } } }),
      // The LangGraph API (its own key-scope auth): the thread is resolved to bind the run, and the
      // run's checks and the Run object it answers with reuse it.
      "POST langgraph threads/:id/runs (a message)": await call(
        "owner",
        platformRuns,
        { threadId: ids.idle2 },
        {
          method: "POST",
          body: { assistant_id: ids.flow, input: { messages: [{ role: "user", content: "Read notes.md" }] } },
        },
      ),
    };
    if (process.env.LOOKUPS_PRINT === "1") console.table(results);
    for (const [name, r] of Object.entries(results)) {
      expect(r.role, name).toBe(1);
      expect(r.thread, name).toBeLessThanOrEqual(1);
    }
    expect(Object.values(results).map((r) => r.status)).toEqual([200, 200, 200, 200, 201, 200, 200, 403, 200, 200]);
    // The approval: read once, by its service (the wrapper asks only for the membership of the
    // workspace holding it). The flow: one read to resolve it; saving a version reads it once
    // more with its latest version.
    expect(results["GET approvals/:id"].approval).toBe(1);
    expect(results["GET flows/:id/versions"].flow).toBe(1);
    expect(results["POST flows/:id/versions"].flow).toBe(2);
  });
});
