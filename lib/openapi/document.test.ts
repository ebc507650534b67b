import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { apiRoutes } from "../../tests/security/route-files";
import { API_OPERATIONS } from "../../app/api/_openapi";
import { buildOpenApiDocument, defaultOperationId, type OpenApiDocument } from "./document";
import type { ApiOperation } from "./operation";

/**
 * Route files the document leaves out on purpose, and why. Each must exist (no stale entries).
 */
const UNDOCUMENTED: Record<string, string> = {
  // Auth.js's own browser endpoints (CSRF, callbacks, session): a sign-in form, not an API; programs use API keys.
  "/api/auth/[...nextauth]": "Auth.js sign-in endpoints",
  // The LangGraph Platform API's catch-all: any number of path segments after /api/langgraph, for
  // every Platform endpoint we do not offer (404 with a `detail` naming it). An OpenAPI path
  // parameter is one segment, so `/api/langgraph/{rest}` would describe the wrong URLs
  // (`/crons/search` is two) and hand generators five operations that only ever answer 404.
  // The "LangGraph Platform API" tag's description says it instead (asserted below).
  "/api/langgraph/[...rest]": "LangGraph Platform API endpoints not offered",
};

/** `[threadId]` -> `{threadId}`; a catch-all `[...path]` is one parameter, `{path}` (its value may hold `/`). */
const openApiPath = (pattern: string) => pattern.replace(/\[(?:\.\.\.)?([^\]]+)\]/g, "{$1}");

const doc = buildOpenApiDocument(API_OPERATIONS);

/** The document as the validator's plain JSON input (a copy: the validator may annotate it). */
const asSpec = (d: OpenApiDocument) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>;

describe("the OpenAPI document", () => {
  it("validates as OpenAPI 3.1", async () => {
    const validator = new Validator();
    const result = await validator.validate(asSpec(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("lists every route file's methods, and nothing that no route file serves", () => {
    const routes = apiRoutes().filter((r) => !UNDOCUMENTED[r.pattern]);
    const served = routes.flatMap((r) => r.methods.map((m) => `${m} ${openApiPath(r.pattern)}`)).sort();
    const documented = Object.entries(doc.paths)
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(
      served.filter((s) => !documented.includes(s)),
      "route methods missing from app/api/_openapi/",
    ).toEqual([]);
    expect(
      documented.filter((d) => !served.includes(d)),
      "documented operations with no route file",
    ).toEqual([]);
    // Sanity: the walk found the app's routes, so an empty comparison means something.
    expect(served).toContain("POST /api/threads/{threadId}/stream");
    expect(served.length).toBeGreaterThan(40);
  });

  it("has no stale entry in its list of undocumented routes", () => {
    const patterns = apiRoutes().map((r) => r.pattern);
    expect(Object.keys(UNDOCUMENTED).filter((p) => !patterns.includes(p))).toEqual([]);
  });

  it("takes request bodies from the routes' zod schemas, on their input side", () => {
    const create = doc.paths["/api/threads"]?.post;
    expect(create?.requestBody?.content["application/json"]?.schema).toMatchObject({
      type: "object",
      properties: { flowId: { type: "string", minLength: 1, maxLength: 64 }, task: { type: "string", maxLength: 4000 }, version: { type: "integer" } },
      required: ["flowId", "task"],
    });
    // A transform (string -> number) is documented as what the client sends: the digits.
    const version = doc.paths["/api/flows/{flowId}/versions/{version}"]?.get?.parameters?.find((p) => p.name === "version");
    expect(version).toMatchObject({ in: "path", required: true, schema: { type: "string", pattern: "^[1-9][0-9]{0,8}$" } });
    // A default makes the key optional for the client.
    const save = doc.paths["/api/flows/{flowId}/versions"]?.post?.requestBody?.content["application/json"]?.schema;
    expect(save?.required ?? []).not.toContain("message");
    // A discriminated union keeps its branches.
    const stream = doc.paths["/api/threads/{threadId}/stream"]?.post?.requestBody?.content["application/json"]?.schema as { properties: { input: { oneOf: unknown[] } } };
    expect(stream.properties.input.oneOf).toHaveLength(4);
  });

  it("turns query schemas into query parameters, optional unless required, preprocessing seen through", () => {
    const inbox = doc.paths["/api/approvals"]?.get?.parameters ?? [];
    expect(inbox.map((p) => [p.name, p.in, p.required])).toEqual([
      ["flowId", "query", false],
      ["risk", "query", false],
      ["status", "query", false],
      ["sort", "query", false],
    ]);
    expect(inbox.find((p) => p.name === "status")?.schema).toMatchObject({ enum: ["pending", "approved", "rejected", "expired", "consumed", "all"], default: "pending" });
    const remove = doc.paths["/api/settings/providers"]?.delete?.parameters ?? [];
    // openai, anthropic, openai-compatible, or a named OpenAI-compatible entry (docs/models.md).
    expect(remove).toEqual([{ name: "provider", in: "query", required: true, schema: { type: "string", pattern: "^[a-z][a-z0-9_-]{0,31}$" } }]);
  });

  it("describes streams as text/event-stream and errors with the shared error body", () => {
    const follow = doc.paths["/api/threads/{threadId}/stream"]?.get?.responses ?? {};
    expect(Object.keys(follow["200"]?.content ?? {})).toEqual(["text/event-stream"]);
    expect(follow["204"]?.content).toBeUndefined();
    expect(follow["401"]?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(doc.components.schemas.Error).toMatchObject({ required: ["error"] });
    expect(Object.keys(doc.paths["/api/approvals/events"]?.get?.responses["200"]?.content ?? {})).toEqual(["text/event-stream"]);
  });

  it("describes the LangGraph Platform API's errors as the Platform's { detail, error }, and only there", () => {
    const get = doc.paths["/api/langgraph/threads/{threadId}"]?.get?.responses ?? {};
    const platformError = { $ref: "#/components/schemas/PlatformError" };
    for (const status of ["401", "404", "422"]) expect(get[status]?.content?.["application/json"]?.schema, status).toEqual(platformError);
    // A 405 of an endpoint not offered, and errors of streams and of webhooks' siblings.
    expect(doc.paths["/api/langgraph/assistants"]?.post?.responses["405"]?.content?.["application/json"]?.schema).toEqual(platformError);
    expect(doc.paths["/api/langgraph/threads/{threadId}/runs/stream"]?.post?.responses["409"]?.content?.["application/json"]?.schema).toEqual(platformError);
    expect(doc.paths["/api/workspaces/{workspaceId}/webhooks"]?.post?.responses["403"]?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(doc.components.schemas.PlatformError).toMatchObject({
      required: ["detail", "error"],
      properties: { detail: { type: "string" }, error: { required: ["code", "reason", "message"] } },
    });
    const codes = (s: unknown) => (s as { properties: { error: { properties: { code: { enum: string[] } } } } }).properties.error.properties.code.enum;
    expect(codes(doc.components.schemas.PlatformError)).toContain("method_not_allowed");
    expect(codes(doc.components.schemas.Error)).not.toContain("method_not_allowed");
    // The catch-all route left out above is described where a reader of the group looks.
    expect(doc.tags.find((t) => t.name === "LangGraph Platform API")?.description).toMatch(/Any other path under `\/api\/langgraph`.*404/);
  });

  it("documents the LangGraph Platform API: public info, keys elsewhere, its two streams as server-sent events", () => {
    const lg = Object.entries(doc.paths).filter(([p]) => p.startsWith("/api/langgraph/"));
    expect(lg.length).toBeGreaterThan(20);
    for (const [path, item] of lg) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.tags, `${method} ${path}`).toEqual(["LangGraph Platform API"]);
        if (path !== "/api/langgraph/info") expect(op.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }, { session: [] }]);
      }
    }
    expect(doc.paths["/api/langgraph/info"]?.get?.security).toEqual([]);
    expect(doc.paths["/api/langgraph/info"]?.get?.responses["401"]).toBeUndefined();
    expect(Object.keys(doc.paths["/api/langgraph/threads/{threadId}/runs/stream"]?.post?.responses["200"]?.content ?? {})).toEqual(["text/event-stream"]);
    expect(Object.keys(doc.paths["/api/langgraph/threads/{threadId}/runs/{runId}/stream"]?.get?.responses["200"]?.content ?? {})).toEqual(["text/event-stream"]);
    expect(Object.keys(doc.paths["/api/langgraph/threads/{threadId}/runs/wait"]?.post?.responses["200"]?.content ?? {})).toEqual(["application/json"]);
    // The run body is the route's own RunBody: the stream modes it serves, the options it refuses are there.
    const run = doc.paths["/api/langgraph/threads/{threadId}/runs"]?.post?.requestBody?.content["application/json"]?.schema as { properties: Record<string, unknown>; required: string[] };
    expect(run.required).toContain("assistant_id");
    expect(JSON.stringify(run.properties.stream_mode)).toContain("messages-tuple");
    expect(doc.paths["/api/langgraph/threads/{threadId}/runs/{runId}/stream"]?.get?.parameters?.map((p) => `${p.in} ${p.name}`)).toEqual([
      "path threadId",
      "path runId",
      "query cancel_on_disconnect",
      "query stream_mode",
      "query namespace",
      "query checkpoint_id",
    ]);
  });

  it("documents webhooks for owners, with keys or a session", () => {
    const hooks = Object.entries(doc.paths).filter(([p]) => p.includes("/webhooks"));
    expect(hooks.flatMap(([, item]) => Object.keys(item))).toHaveLength(6);
    for (const [path, item] of hooks) {
      for (const [method, op] of Object.entries(item)) {
        expect(op.tags, `${method} ${path}`).toEqual(["Webhooks"]);
        expect(op.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }, { session: [] }]);
        expect(op.description, `${method} ${path}`).toMatch(/Owners of the workspace only/);
        expect(op.responses["403"], `${method} ${path}`).toBeDefined();
      }
    }
    const add = doc.paths["/api/workspaces/{workspaceId}/webhooks"]?.post?.requestBody?.content["application/json"]?.schema;
    expect(add).toMatchObject({ required: ["url", "events"], additionalProperties: false });
  });

  it("says who may call each operation: keys or a session, or nobody for the public ones", () => {
    expect(doc.paths["/api/threads"]?.post?.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }, { session: [] }]);
    expect(doc.paths["/api/health"]?.get?.security).toEqual([]);
    expect(doc.paths["/api/openapi.json"]?.get?.security).toEqual([]);
    expect(doc.paths["/api/health"]?.get?.responses["401"]).toBeUndefined();
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: "http", scheme: "bearer" },
      apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key" },
      session: { type: "apiKey", in: "cookie", name: "authjs.session-token" },
    });
  });

  it("takes its version from package.json and serves from the app's origin", async () => {
    const { default: pkg } = await import("../../package.json");
    expect(doc.info.version).toBe(pkg.version);
    expect(doc.servers).toEqual([{ url: "/" }]);
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
  });
});

describe("building the document", () => {
  const op = (over: Partial<ApiOperation>): ApiOperation => ({
    method: "GET",
    path: "/api/things/{thingId}",
    tag: "Test",
    summary: "s",
    auth: "none",
    responses: { 200: { description: "ok" } },
    ...over,
  });

  it("refuses a path whose {param} has no params schema, and a params key the path lacks", () => {
    expect(() => buildOpenApiDocument([op({})])).toThrow(/give a params schema with thingId/);
    expect(() => buildOpenApiDocument([op({ params: z.object({ thingId: z.string(), other: z.string() }) })])).toThrow(/"other", which is not a \{param\}/);
  });

  it("refuses the same method and path twice", () => {
    const one = op({ params: z.object({ thingId: z.string() }) });
    expect(() => buildOpenApiDocument([one, one])).toThrow(/listed twice/);
  });

  it("moves the definitions of a recursive schema into components, with $refs that resolve there", async () => {
    type Tree = { name: string; children: Tree[] };
    const Tree: z.ZodType<Tree> = z.lazy(() => z.object({ name: z.string(), children: z.array(Tree) }));
    const built = buildOpenApiDocument([op({ method: "POST", path: "/api/trees", body: z.object({ root: Tree }) })]);
    const text = JSON.stringify(built);
    expect(text).not.toContain("#/$defs/");
    const refs = [...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(refs.length).toBeGreaterThan(0);
    for (const r of refs) expect(built.components.schemas[r], r).toBeDefined();
    expect((await new Validator().validate(asSpec(built))).valid).toBe(true);
  });

  it("names operations after their method and path unless told otherwise", () => {
    expect(defaultOperationId("GET", "/api/threads/{threadId}/checkpoints")).toBe("getThreadsByThreadIdCheckpoints");
    expect(defaultOperationId("GET", "/api/openapi.json")).toBe("getOpenapiJson");
  });
});
