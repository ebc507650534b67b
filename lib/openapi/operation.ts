import type { z } from "zod";

/**
 * One documented API operation, as the files under app/api/_openapi/ list them. The
 * document (lib/openapi/document.ts) turns each into an OpenAPI 3.1 Operation Object; the
 * schemas are the route's own zod schemas (its `schema.ts`), converted with `z.toJSONSchema`
 * on their input side, so the reference never drifts from what the route parses.
 *
 * Adding a route: import its `schema.ts` in the area's file and append an entry, e.g.
 *
 * ```ts
 * import { Body, Params } from "@/app/api/keys/[keyId]/schema";
 * export const keyOperations: ApiOperation[] = [
 *   { method: "DELETE", path: "/api/keys/{keyId}", tag: "API keys", summary: "Revoke an API key",
 *     auth: "session-or-key", params: Params, responses: { 204: { description: "Revoked." } } },
 * ];
 * ```
 *
 * The unit test lib/openapi/document.test.ts fails until every route file is listed here.
 */
export interface ApiOperation {
  /** HTTP method, upper case, as the route file exports it. */
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** OpenAPI path: `/api/threads/{threadId}` for the folder `app/api/threads/[threadId]`. */
  path: string;
  /** One line, imperative or nominal ("Create a thread"). */
  summary: string;
  /** Longer Markdown: who may call it, what it changes, special answers. */
  description?: string;
  /** Group on the reference page and in the document's `tags` (lib/openapi/tags.ts describes the known ones). */
  tag: string;
  /** A stable operationId; default: the method and the path in camelCase (`getThreadsByThreadIdCheckpoints`). */
  operationId?: string;
  /** Route params: a zod object whose keys are the `{param}`s of `path` (always required). */
  params?: z.ZodType;
  /** Query string: a zod object; each key becomes a `query` parameter (optional unless the schema requires it). */
  query?: z.ZodType;
  /** JSON request body (`application/json`). */
  body?: z.ZodType;
  /** Answers by status code ("200", "201", "204", "409"...). Common errors (401, 404, 422) are added by the document. */
  responses: Record<number | string, ApiResponse>;
  /**
   * Who may call it: `session-or-key` (a browser session cookie, or an API key as
   * `Authorization: Bearer` or `x-api-key`), `session` (a signed-in browser only), `none` (public).
   */
  auth: "session-or-key" | "session" | "none";
  /** `sse`: a successful answer is a `text/event-stream` (server-sent events), not JSON. */
  stream?: "sse";
}

/** One documented answer of an operation. */
export interface ApiResponse {
  description: string;
  /** The body: a zod schema (converted on its output side) or a JSON Schema (draft 2020-12). Absent: not described. */
  schema?: z.ZodType | JsonSchema;
  /** Media type of the body; default `application/json`. Use `application/octet-stream` for raw bytes. */
  contentType?: string;
}

/** A JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) as a plain object. */
export type JsonSchema = { [key: string]: unknown };
