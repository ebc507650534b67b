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
};

/** `/api/threads/[threadId]` -> `/api/threads/{threadId}`. */
const openApiPath = (pattern: string) => pattern.replace(/\[([^\]]+)\]/g, "{$1}");

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
    expect(served.filter((s) => !documented.includes(s)), "route methods missing from app/api/_openapi/").toEqual([]);
    expect(documented.filter((d) => !served.includes(d)), "documented operations with no route file").toEqual([]);
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
    expect(remove).toEqual([{ name: "provider", in: "query", required: true, schema: { type: "string", enum: ["openai", "anthropic", "openai-compatible"] } }]);
  });

  it("describes streams as text/event-stream and errors with the shared error body", () => {
    const follow = doc.paths["/api/threads/{threadId}/stream"]?.get?.responses ?? {};
    expect(Object.keys(follow["200"]?.content ?? {})).toEqual(["text/event-stream"]);
    expect(follow["204"]?.content).toBeUndefined();
    expect(follow["401"]?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(doc.components.schemas.Error).toMatchObject({ required: ["error"] });
    expect(Object.keys(doc.paths["/api/approvals/events"]?.get?.responses["200"]?.content ?? {})).toEqual(["text/event-stream"]);
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
  const op = (over: Partial<ApiOperation>): ApiOperation => ({ method: "GET", path: "/api/things/{thingId}", tag: "Test", summary: "s", auth: "none", responses: { 200: { description: "ok" } }, ...over });

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
