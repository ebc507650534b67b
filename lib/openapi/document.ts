import pkg from "../../package.json";
import { ErrorBodySchema, PlatformErrorBodySchema, SECURITY_BY_AUTH, SECURITY_SCHEMES } from "./components";
import { type SharedSchemas, toJsonSchema } from "./json-schema";
import type { ApiOperation, ApiResponse, JsonSchema } from "./operation";
import { TAGS } from "./tags";

/** An OpenAPI 3.1 document as plain JSON (the parts this module writes are typed loosely on purpose). */
export interface OpenApiDocument {
  openapi: "3.1.1";
  jsonSchemaDialect: string;
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

/** One OpenAPI Operation Object as {@link buildOpenApiDocument} writes it. */
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { required: true; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

/** One OpenAPI Parameter Object (path or query). */
export interface OpenApiParameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

const ERROR_REF = { $ref: "#/components/schemas/Error" };
const PLATFORM_ERROR_REF = { $ref: "#/components/schemas/PlatformError" };

/**
 * Whether an operation belongs to the LangGraph Platform API, whose errors are the Platform's
 * `{ detail, error }` (lib/langgraph-api/route.ts withPlatform; docs/langgraph-api.md#errors).
 */
function isPlatformPath(path: string): boolean {
  return path === "/api/langgraph" || path.startsWith("/api/langgraph/");
}

const INTRO =
  "The JSON API of Phylactery. Authenticate with an API key made in Settings (`Authorization: Bearer phy_...` or `x-api-key: phy_...`) or, from the browser, the session cookie. Errors are `{ error: { code, reason, message, issues? } }`. The LangGraph Platform API (for the LangGraph SDK) lives under `/api/langgraph`; its errors are the Platform's `{ detail, error }`.";

/** `GET /api/threads/{threadId}/checkpoints` -> `getThreadsByThreadIdCheckpoints`. */
export function defaultOperationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, "")
    .split("/")
    .flatMap((seg) => (seg.startsWith("{") ? ["by", seg.slice(1, -1)] : seg.split(/[^A-Za-z0-9]+/)))
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w.charAt(0).toUpperCase() + w.slice(1))].join("");
}

/** The `{param}` names of an OpenAPI path, in order. */
function pathParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? "");
}

function parameters(op: ApiOperation, operationId: string, shared: SharedSchemas): OpenApiParameter[] {
  const out: OpenApiParameter[] = [];
  const names = pathParams(op.path);
  for (const [where, schema] of [
    ["path", op.params],
    ["query", op.query],
  ] as const) {
    if (!schema) continue;
    const json = toJsonSchema(schema, "input", `${operationId}.${where}`, shared);
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, { description, ...prop }] of Object.entries(properties)) {
      if (where === "path" && !names.includes(name)) throw new Error(`${op.method} ${op.path}: the params schema has "${name}", which is not a {param} of the path.`);
      out.push({ name, in: where, required: where === "path" || required.has(name), ...(typeof description === "string" ? { description } : {}), schema: prop });
    }
  }
  const missing = names.filter((n) => !out.some((p) => p.in === "path" && p.name === n));
  if (missing.length) throw new Error(`${op.method} ${op.path}: give a params schema with ${missing.join(", ")}.`);
  return out;
}

function response(op: ApiOperation, status: string, res: ApiResponse, operationId: string, shared: SharedSchemas): OpenApiOperation["responses"][string] {
  const code = Number(status);
  if (code === 204 || code === 304) return { description: res.description };
  const sse = op.stream === "sse" && code >= 200 && code < 300;
  const contentType = res.contentType ?? (sse ? "text/event-stream" : "application/json");
  const errorRef = isPlatformPath(op.path) ? PLATFORM_ERROR_REF : ERROR_REF;
  const schema = res.schema ? toJsonSchema(res.schema, "output", `${operationId}.${status}`, shared) : code >= 400 ? errorRef : sse ? { type: "string" } : {};
  return { description: res.description, content: { [contentType]: { schema } } };
}

/** The errors every operation of a kind can answer, unless the operation describes them itself. */
function commonErrors(op: ApiOperation): Record<string, ApiResponse> {
  return {
    ...(op.body ? { 400: { description: "The body is not JSON." } } : {}),
    ...(op.auth !== "none" ? { 401: { description: "No session and no valid API key." } } : {}),
    ...(op.params ? { 404: { description: "Not found, or not visible to this user (another workspace's)." } } : {}),
    ...(op.body ? { 413: { description: "The body is too large." }, 415: { description: "The body is not `application/json`." } } : {}),
    ...(op.params || op.query || op.body
      ? { 422: { description: isPlatformPath(op.path) ? "Invalid input: `detail` says what is wrong; `error.issues` names each field." : "Invalid input: `issues` names each field." } }
      : {}),
  };
}

function operation(op: ApiOperation, shared: SharedSchemas): OpenApiOperation {
  const operationId = op.operationId ?? defaultOperationId(op.method, op.path);
  const params = parameters(op, operationId, shared);
  const answers = { ...commonErrors(op), ...op.responses };
  const statuses = Object.keys(answers).sort();
  return {
    operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    security: SECURITY_BY_AUTH[op.auth],
    ...(params.length ? { parameters: params } : {}),
    ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: toJsonSchema(op.body, "input", `${operationId}.body`, shared) } } } } : {}),
    responses: Object.fromEntries(statuses.map((s) => [s, response(op, s, answers[s] as ApiResponse, operationId, shared)])),
  };
}

/**
 * Builds the OpenAPI 3.1 document of the app's API from the operations the files under
 * app/api/_openapi/ list (each with its route's own zod schemas; lib/openapi/json-schema.ts
 * converts them). Paths keep the order of the operations; tags follow lib/openapi/tags.ts,
 * then any other tag an operation uses. Error answers without a schema of their own are the
 * app's `Error` body, or `PlatformError` (`{ detail, error }`) under /api/langgraph.
 * @param operations the operations to describe (app/api/_openapi/index.ts lists them all).
 * @throws Error when two operations share a method and path or an operationId, or when a
 *   path's `{param}`s and its params schema disagree (a programming error, caught by
 *   lib/openapi/document.test.ts).
 */
export function buildOpenApiDocument(operations: readonly ApiOperation[]): OpenApiDocument {
  const shared: SharedSchemas = {};
  const paths: OpenApiDocument["paths"] = {};
  const ids = new Set<string>();
  for (const op of operations) {
    const item = paths[op.path] ?? {};
    paths[op.path] = item;
    const method = op.method.toLowerCase();
    if (item[method]) throw new Error(`${op.method} ${op.path} is listed twice under app/api/_openapi/.`);
    const built = operation(op, shared);
    if (ids.has(built.operationId)) throw new Error(`${op.method} ${op.path}: operationId ${built.operationId} is taken; give this one its own.`);
    ids.add(built.operationId);
    item[method] = built;
  }
  const used = new Set(operations.map((o) => o.tag));
  const tags = [...TAGS.filter((t) => used.has(t.name)), ...[...used].filter((t) => !TAGS.some((k) => k.name === t)).map((name) => ({ name }))];
  return {
    openapi: "3.1.1",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    info: { title: "Phylactery API", version: pkg.version, description: INTRO },
    servers: [{ url: "/" }],
    tags,
    paths,
    components: { schemas: { Error: ErrorBodySchema, PlatformError: PlatformErrorBodySchema, ...shared }, securitySchemes: SECURITY_SCHEMES },
  };
}

const built = new WeakMap<readonly ApiOperation[], OpenApiDocument>();

/**
 * The OpenAPI document of a list of operations, built once per process per list (the routes
 * do not change while it runs); the app passes app/api/_openapi/index.ts's list.
 */
export function openApiDocument(operations: readonly ApiOperation[]): OpenApiDocument {
  let doc = built.get(operations);
  if (!doc) {
    doc = buildOpenApiDocument(operations);
    built.set(operations, doc);
  }
  return doc;
}
