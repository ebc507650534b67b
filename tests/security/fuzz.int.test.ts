import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb } from "../../lib/db/client";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { type Client, signIn } from "../http/client";
import { startRun } from "../http/runs";
import { startServer, type TestServer } from "../http/server";
import { type BodyCase, type FuzzClass, fieldCases, HOSTILE_QUERY_VALUES, HOSTILE_SEGMENTS, prng, QUERY_KEYS, stringifyWithRaw, wholeBodyCases } from "./fuzz-corpus";
import { discoverRoutes, fillTemplate, type RouteFile } from "./fuzz-routes";
import { sendJudged, type TransportFailure } from "./fuzz-send";

/**
 * The boundary fuzzer (docs/security.md "Input limits"): every route file under app/api,
 * found on disk, gets a deterministic hostile corpus (seeded PRNG) in its route segments,
 * query string and JSON body, sent by a signed-in owner (alice) to the built app. No answer
 * may be a 5xx, no request may hang, and nothing in another tenant's workspace may change.
 */

/**
 * Routes whose handlers do not go through the shared wrapper, and why; they are fuzzed all
 * the same (segments, query, bodies) and must answer < 500. Each must exist (no stale entries).
 */
const NOT_WRAPPED: Record<string, string> = {
  "/api/auth/[...nextauth]": "Auth.js's own endpoints (CSRF, session, credentials sign-in) read forms, not JSON; the sign-in throttle wraps its POST",
  "/api/health": "takes no input at all: no params, query or body is read",
  "/api/openapi.json": "takes no input at all: the same public document for every request",
  "/api/langgraph/info": "takes no input at all: no params, query or body is read (public versions and flags)",
};

/** Routes not fuzzed at all, and why (none today: every route is fuzzed). */
const EXCLUDED: Record<string, string> = {};

const SEED = 0x5eed13;
const CONCURRENCY = 4;
const TIMEOUT_MS = 30_000;

interface Job {
  cls: FuzzClass;
  route: string;
  method: string;
  path: string;
  body?: string | Uint8Array<ArrayBuffer> | null;
  contentType?: string | null;
  label: string;
}

interface Outcome {
  job: Job;
  /** 0 when no answer came (see `failure`). */
  status: number;
  failure?: TransportFailure;
  /** The reset a GET or HEAD was sent again after (fuzz-send.ts). */
  retriedAfter?: TransportFailure;
  body?: string;
}

type Tally = Record<string, { sent: number; "2xx": number; "3xx": number; "4xx": number; "5xx": number; hang: number; reset: number; error: number }>;

async function send(c: Client, job: Job): Promise<Outcome> {
  const headers: Record<string, string> = {};
  if (job.contentType) headers["content-type"] = job.contentType;
  const result = await sendJudged(
    job.method,
    (signal) => c.fetch(job.path, { method: job.method, headers, ...(job.body !== undefined && job.body !== null ? { body: job.body } : {}), signal }),
    TIMEOUT_MS,
  );
  return { job, ...result };
}

async function runAll(c: Client, jobs: Job[], concurrency: number): Promise<Outcome[]> {
  const out: Outcome[] = [];
  let next = 0;
  // Let the client take in what came while it was busy (a keep-alive connection the server
  // closed) before its pool hands out a connection for the first request.
  await new Promise((r) => setImmediate(r));
  const worker = async () => {
    for (let i = next++; i < jobs.length; i = next++) {
      const job = jobs[i];
      if (job) out.push(await send(c, job));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}

function tally(outcomes: Outcome[]): Tally {
  const t: Tally = {};
  for (const o of outcomes) {
    t[o.job.cls] ??= { sent: 0, "2xx": 0, "3xx": 0, "4xx": 0, "5xx": 0, hang: 0, reset: 0, error: 0 };
    const row = t[o.job.cls];
    if (!row) continue;
    row.sent++;
    if (o.failure) row[o.failure.kind]++;
    else row[`${Math.floor(o.status / 100)}xx` as "2xx"]++;
  }
  return t;
}

const errorOf = (o: Outcome) => {
  try {
    return (JSON.parse(o.body ?? "") as { error?: { reason?: string; message?: string; issues?: { path: string }[] } }).error;
  } catch {
    return undefined;
  }
};

describe('fuzzing every JSON route at the boundary (docs/security.md "Input limits")', () => {
  let s: TestServer;
  let alice: Client;
  const routes = discoverRoutes(process.cwd());
  /** Real ids of alice's data (URL-encoded), by segment name. */
  const real: Record<string, string> = {};
  /** Bob's ids, which alice must never reach. */
  const bobs: Record<string, string> = {};
  /** Valid-looking bodies per "METHOD template", the seeds of the field mutations. */
  const bases: Record<string, unknown[]> = {};
  let bobBefore: unknown;

  const bobSnapshot = async () => {
    const db = createDb(s.dbUrl);
    try {
      const ws = bobs.workspaceId ?? "";
      const [workspace, flows, versions, threads, members, facts] = await Promise.all([
        db.workspace.findUnique({ where: { id: ws } }),
        db.flow.findMany({ where: { workspaceId: ws }, orderBy: { id: "asc" } }),
        db.flowVersion.findMany({ where: { flow: { workspaceId: ws } }, orderBy: { id: "asc" } }),
        db.thread.findMany({ where: { flow: { workspaceId: ws } }, orderBy: { id: "asc" } }),
        db.membership.findMany({ where: { workspaceId: ws }, orderBy: { userId: "asc" } }),
        db.memoryFact.findMany({ where: { workspaceId: ws }, orderBy: { id: "asc" } }),
      ]);
      return { workspace, flows, versions, threads, members, facts };
    } finally {
      await db.$disconnect();
    }
  };

  beforeAll(async () => {
    s = await startServer({ LOG_LEVEL: "silent" });
    const [a, b, carol] = s.users;
    if (!a || !b || !carol) throw new Error("seeded users missing");
    alice = await signIn(s.url, a.email, a.password);
    const db = createDb(s.dbUrl);
    try {
      real.workspaceId = (await db.flow.findUniqueOrThrow({ where: { id: a.flowId } })).workspaceId;
      bobs.workspaceId = (await db.flow.findUniqueOrThrow({ where: { id: b.flowId } })).workspaceId;
    } finally {
      await db.$disconnect();
    }
    real.flowId = a.flowId;
    bobs.flowId = b.flowId;
    // LangGraph API routes name a flow as an assistant.
    real.assistantId = a.flowId;
    bobs.assistantId = b.flowId;
    real.userId = carol.id;
    bobs.userId = b.id;
    real.version = "1";
    const { threadId, approval } = await startRun(alice, a.flowId);
    real.threadId = threadId;
    real.approvalId = approval.approvalId;
    const runs = (await (await alice.fetch(`/api/langgraph/threads/${threadId}/runs`)).json().catch(() => [])) as { run_id?: string }[];
    real.runId = runs[0]?.run_id ?? "run_missing000";
    const cps = (await (await alice.fetch(`/api/threads/${threadId}/checkpoints`)).json()) as { checkpoints?: { checkpointId: string }[] };
    real.checkpointId = cps.checkpoints?.[0]?.checkpointId ?? "1f1e68c6-7193-6070-8000-ffd83c9f9246";
    const fact = (await (await alice.post(`/api/workspaces/${real.workspaceId}/memory`, { content: "The fuzz server is fuzz.example.invalid" })).json()) as { fact?: { id: string } };
    real.factId = fact.fact?.id ?? "fact_missing";
    await alice.post(`/api/workspaces/${real.workspaceId}/members`, { email: "newcomer@test.dev", role: "viewer" });
    const invitations = (await (await alice.fetch(`/api/workspaces/${real.workspaceId}/invitations`)).json().catch(() => ({}))) as { invitations?: { id: string }[] };
    real.invitationId = invitations.invitations?.[0]?.id ?? "inv_missing000";
    const key = (await (await alice.post("/api/keys", { name: "Fuzz key", workspaceId: real.workspaceId })).json().catch(() => ({}))) as { id?: string };
    real.keyId = key.id ?? "key_missing000";
    real.serverId = "mcp_missing000";
    real.webhookId = "whk_missing000";
    real.name = "FUZZ_TOKEN";
    real.deliveryId = "dlv_missing000";
    real.blobId = "blob_missing00";
    real["...nextauth"] = "session";
    real["...rest"] = "crons/search";

    const decision = { kind: "decision", approvalId: approval.approvalId, token: approval.token, argsHash: approval.argsHash };
    Object.assign(bases, {
      "POST /api/flows": [{ template: "workspace-assistant", name: "Fuzzed flow", workspaceId: real.workspaceId }],
      "POST /api/flows/[flowId]/versions": [{ document: workspaceAssistant, message: "fuzz" }],
      "POST /api/threads": [{ flowId: a.flowId, task: "Summarize notes.md into summary.md", version: 1 }],
      "POST /api/threads/[threadId]/stream": [
        { input: { ...decision, decision: "edit", args: { path: "summary.md", content: "edited" }, comment: "fuzz" } },
        { input: { ...decision, decision: "reject", comment: "no" } },
        { input: { kind: "message", text: "Summarize notes.md", agentId: "assistant" } },
      ],
      "POST /api/threads/[threadId]/fork": [{ checkpointId: real.checkpointId }],
      "POST /api/langgraph/threads/[threadId]/runs": [{ assistant_id: a.flowId, input: { messages: [{ role: "user", content: "Summarize notes.md" }] }, metadata: { fuzz: true } }],
      "POST /api/langgraph/threads/[threadId]/runs/stream": [
        { assistant_id: a.flowId, command: { resume: [{ type: "response", args: "fuzz" }] }, stream_mode: ["values", "custom"] },
        { assistant_id: a.flowId, command: { resume: { type: "accept", args: { action: "write_file", args: { path: "summary.md" }, approval: { id: approval.approvalId, token: approval.token } } } } },
      ],
      "POST /api/langgraph/threads/[threadId]/runs/wait": [{ assistant_id: a.flowId, input: { messages: [{ role: "user", content: "Summarize notes.md" }] } }],
      "PUT /api/settings/providers": [
        { provider: "openai-compatible", baseUrl: "https://llm.example.invalid/v1", model: "m", apiKey: "sk-fuzz", isDefault: false },
        { provider: "openai", apiKey: "sk-fuzz", model: "gpt", isDefault: false },
      ],
      "POST /api/workspaces/[workspaceId]/mcp": [
        { name: "fuzz", transport: "http", url: "https://mcp.example.invalid/mcp", secrets: { Authorization: "Bearer x" } },
        { name: "fuzz2", transport: "stdio", command: "fuzz", values: { a: "b" }, secrets: { TOKEN: "x" } },
      ],
      "PATCH /api/workspaces/[workspaceId]/mcp/[serverId]": [{ url: "https://mcp.example.invalid/mcp", secrets: { Authorization: null } }],
      "POST /api/workspaces/[workspaceId]/webhooks": [{ url: "https://hooks.example.invalid/phylactery", events: ["approval.required", "run.failed"] }],
      "PATCH /api/workspaces/[workspaceId]/webhooks/[webhookId]": [{ url: "https://hooks.example.invalid/other", events: ["run.finished"], enabled: false }],
      "POST /api/workspaces/[workspaceId]/secrets": [{ name: "FUZZ_TOKEN", value: "fuzz-value", hosts: ["api.example.invalid", "*.example.invalid"] }],
      "PUT /api/workspaces/[workspaceId]/secrets/[name]": [{ value: "fuzz-value-2", hosts: ["api.example.invalid"] }],
      "POST /api/workspaces/[workspaceId]/members": [{ email: "invitee@test.dev", role: "viewer" }],
      "PATCH /api/workspaces/[workspaceId]/members/[userId]": [{ role: "approver" }],
      "POST /api/workspaces/[workspaceId]/memory": [{ content: "A fact", tags: ["a", "b"], agentRole: "assistant" }],
      "POST /api/auth/[...nextauth]": [{ email: "alice@test.dev", password: "not her password", csrfToken: "x", callbackUrl: "/flows" }],
      "POST /api/keys": [{ name: "Fuzzed key", workspaceId: real.workspaceId }, { name: "All workspaces" }],
      "POST /api/admin/users": [{ email: "made@test.dev", name: "Made", password: "a long enough password" }],
    });
    bobBefore = await bobSnapshot();
  }, 120_000);
  afterAll(async () => s?.stop());

  const url = (r: RouteFile, values: Record<string, string>, query = "") => `${fillTemplate(r.template, values)}${query}`;
  const fuzzed = () => routes.filter((r) => !(r.template in EXCLUDED));
  const bodyRoutes = () => fuzzed().flatMap((r) => r.bodyMethods.map((m) => ({ r, m })));

  it("finds every route file and its handlers; each exclusion names an existing route and a reason", () => {
    expect(routes.length).toBeGreaterThan(20);
    for (const r of routes) expect(r.methods, `${r.file} exports no handler the fuzzer can call`).not.toHaveLength(0);
    for (const [t, why] of Object.entries({ ...EXCLUDED, ...NOT_WRAPPED })) {
      expect(
        routes.map((r) => r.template),
        `stale exclusion ${t}`,
      ).toContain(t);
      expect(why.length).toBeGreaterThan(20);
    }
    // Every base body belongs to a route and method that exists (a renamed route is noticed).
    const handlers = routes.flatMap((r) => r.methods.map((m) => `${m} ${r.template}`));
    for (const key of Object.keys(bases)) expect(handlers, `base body for a missing handler: ${key}`).toContain(key);
    // Every other route goes through the shared wrapper, so it gets the boundary checks.
    for (const r of fuzzed().filter((x) => !(x.template in NOT_WRAPPED))) {
      expect(r.wrappedMethods, `${r.file}: a handler outside the shared wrapper`).toEqual(r.methods);
    }
  });

  it("a lone surrogate anywhere in a JSON body is refused with 422 naming its path, on every route that reads a body", async () => {
    const outcomes = await runAll(
      alice,
      bodyRoutes().map(({ r, m }) => ({
        cls: "lone_surrogate" as const,
        route: r.template,
        method: m,
        path: url(r, real),
        body: stringifyWithRaw({ ...((bases[`${m} ${r.template}`]?.[0] as object | undefined) ?? {}), fuzz: { deep: ["ok", "\ud800"] } }),
        contentType: "application/json",
        label: "lone surrogate at fuzz.deep.1",
      })),
      CONCURRENCY,
    );
    expect(outcomes.length).toBeGreaterThan(10);
    for (const o of outcomes) {
      expect(o.status, `${o.job.method} ${o.job.route}: ${o.body}`).toBe(422);
      expect(errorOf(o)?.message).toMatch(/^fuzz\.deep\.1: .*surrogate/);
      expect(errorOf(o)?.issues?.[0]?.path).toBe("fuzz.deep.1");
    }
  });

  it("a body nested 10,000 deep is refused with 422 before any recursive walk, on every route that reads a body", async () => {
    const outcomes = await runAll(
      alice,
      bodyRoutes().map(({ r, m }) => ({
        cls: "deep_nesting" as const,
        route: r.template,
        method: m,
        path: url(r, real),
        body: `{"input":${"[".repeat(10_000)}${"]".repeat(10_000)}}`,
        contentType: "application/json",
        label: "10,000 deep",
      })),
      CONCURRENCY,
    );
    for (const o of outcomes) {
      expect(o.status, `${o.job.method} ${o.job.route}`).toBe(422);
      expect(errorOf(o)?.reason).toBe("json_too_deep");
      expect(errorOf(o)?.message).toContain("64 levels");
    }
  });

  it("a 6 MB body is refused with 413 naming the limit, on every route that reads a body", async () => {
    const big = JSON.stringify({ a: "x".repeat(6 * 1_048_576) });
    const outcomes = await runAll(
      alice,
      bodyRoutes().map(({ r, m }) => ({ cls: "huge_body" as const, route: r.template, method: m, path: url(r, real), body: big, contentType: "application/json", label: "6 MB" })),
      2,
    );
    for (const o of outcomes) {
      expect(o.status, `${o.job.method} ${o.job.route}`).toBe(413);
      expect(errorOf(o)?.message).toMatch(/limit of \d+ (MB|KB)/);
    }
  });

  it("no hostile segment, query or body gets a 5xx or hangs, on any route (counts per class printed)", async () => {
    const rnd = prng(SEED);
    const realIds = real;
    const jobs: Job[] = [];
    for (const r of fuzzed()) {
      for (const m of r.methods) {
        const route = r.template;
        // Auth.js's sign-in is a POST to callback/credentials: fuzz that one.
        const real = m === "POST" && route === "/api/auth/[...nextauth]" ? { ...realIds, "...nextauth": "callback/credentials" } : realIds;
        const push = (cls: FuzzClass, path: string, label: string, body?: BodyCase) =>
          jobs.push({ cls, route, method: m, path, label, ...(body ? { body: body.body, contentType: body.contentType } : {}) });
        // Route segments: each one in turn hostile (or bob's), the others real.
        for (const seg of r.segments) {
          for (const v of HOSTILE_SEGMENTS) push("hostile_segment", url(r, { ...real, [seg]: v }), `${seg}=${v.slice(0, 20)}`);
          if (bobs[seg]) push("cross_tenant", url(r, { ...real, [seg]: bobs[seg] ?? "" }), `${seg}=bob's`);
        }
        // Query strings: every known key at once with one hostile value, and repeated keys.
        for (const v of HOSTILE_QUERY_VALUES) push("query", url(r, real, `?${QUERY_KEYS.map((k) => `${k}=${v}`).join("&")}`), `query=${v.slice(0, 20)}`);
        push("query", url(r, real, `?q=${"y".repeat(10_000)}`), "10,000-char q");
        push("query", url(r, real, "?limit=1&limit=2&status=a&status=b&q[]=x&q[a]=y"), "repeated and bracketed keys");
        if (m === "GET") continue;
        // Bodies: the whole-body corpus, then field mutations of each valid-looking base.
        const baseList = bases[`${m} ${route}`] ?? [{}];
        const cases: BodyCase[] = [
          ...wholeBodyCases(baseList[0]),
          ...baseList.flatMap((b) => [{ cls: "valid_base" as const, label: "base", body: stringifyWithRaw(b), contentType: "application/json" }, ...fieldCases(b, rnd)]),
        ];
        if (r.template === "/api/auth/[...nextauth]") {
          for (const f of ["email=%ED%A0%80&password=x", `email=${"a".repeat(10_000)}@x&password=y`, "email=alice%40test.dev&password=%00", "csrfToken=__proto__&callbackUrl=javascript:alert(1)"]) {
            cases.push({ cls: "content_type", label: `form ${f.slice(0, 20)}`, body: f, contentType: "application/x-www-form-urlencoded" });
          }
        }
        for (const c of cases) push(c.cls, url(r, real), c.label, c);
      }
    }
    // Destructive calls (DELETE) last, so the others still find the real rows.
    const started = Date.now();
    const outcomes = [
      ...(await runAll(
        alice,
        jobs.filter((j) => j.method !== "DELETE"),
        CONCURRENCY,
      )),
      ...(await runAll(
        alice,
        jobs.filter((j) => j.method === "DELETE"),
        CONCURRENCY,
      )),
    ];
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const counts = tally(outcomes);
    const total = outcomes.length;
    const fiveXX = outcomes.filter((o) => o.status >= 500);
    const hangs = outcomes.filter((o) => o.failure?.kind === "hang");
    const resets = outcomes.filter((o) => o.failure && o.failure.kind !== "hang");
    const retried = outcomes.filter((o) => o.retriedAfter);
    const show = (o: Outcome) =>
      `${o.status} ${o.job.method} ${o.job.path.slice(0, 120)} [${o.job.cls}: ${o.job.label}] ${o.failure ? `${o.failure.kind} ${o.failure.code}: ${o.failure.message}` : (o.body ?? "")}${o.retriedAfter ? ` (sent again after ${o.retriedAfter.kind} ${o.retriedAfter.code})` : ""}`.slice(
        0,
        400,
      );
    console.info(
      `fuzz: ${total} requests to ${fuzzed().length} route files in ${seconds} s; per class (sent/2xx/3xx/4xx/5xx/hang/reset/error):\n${Object.entries(counts)
        .map(([k, v]) => `  ${k.padEnd(17)} ${v.sent}/${v["2xx"]}/${v["3xx"]}/${v["4xx"]}/${v["5xx"]}/${v.hang}/${v.reset}/${v.error}`)
        .join("\n")}${retried.length > 0 ? `\nsent again after a reset with no answer (GET/HEAD, once):\n${retried.map(show).join("\n")}` : ""}`,
    );
    expect(fiveXX.map(show)).toEqual([]);
    expect(hangs.map(show), "requests with no answer in time").toEqual([]);
    expect(resets.map(show), "requests whose connection was closed or reset before an answer").toEqual([]);
    expect(total).toBeGreaterThan(1000);
    // A hang is judged per request (its own time limit, above); the whole sweep of ~3,000
    // requests takes ~100 s on a quiet 2-core machine and up to ~290 s on a loaded one.
  }, 600_000);

  it("after the fuzzing, nothing in bob's workspace changed", async () => {
    expect(await bobSnapshot()).toEqual(bobBefore);
  });
});
