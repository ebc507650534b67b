import { z } from "zod";
import type { JsonSchema } from "./operation";

/** Where the conversion puts definitions it must share (recursive schemas): the document's components. */
export type SharedSchemas = Record<string, JsonSchema>;

function isZod(schema: unknown): schema is z.ZodType {
  return typeof schema === "object" && schema !== null && "_zod" in schema;
}

/** Rewrites every `$ref: "#/$defs/X"` under `node` to `#/components/schemas/<prefix>X`. */
function rewriteRefs(node: unknown, prefix: string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewriteRefs(n, prefix));
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/") ? `#/components/schemas/${prefix}${v.slice(8)}` : rewriteRefs(v, prefix)]),
  );
}

/**
 * A zod schema as a JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1 Schema Objects),
 * by zod 4's `z.toJSONSchema`:
 * - `io`: "input" for what a client sends (params, query, body: a `.transform` documents
 *   its input, a `.default` makes the key optional, `z.coerce.number()` is a number,
 *   `z.preprocess` documents its inner schema), "output" for what a route answers;
 * - refinements (`.refine`, `.superRefine`) are not expressible and are left out (the route
 *   still enforces them; its 422 names the field);
 * - types JSON Schema cannot state (dates, bigints, functions) become `{}` (any) rather
 *   than throwing (`unrepresentable: "any"`).
 * The root `$schema` is dropped (the document's `jsonSchemaDialect` says it), and the
 * `$defs` a recursive schema needs move to `shared` under `<name>.` so that their `$ref`s
 * resolve inside the OpenAPI document. A plain JSON Schema is returned as it is.
 * @param name a unique prefix for shared definitions (e.g. the operationId and part).
 */
export function toJsonSchema(schema: z.ZodType | JsonSchema, io: "input" | "output", name: string, shared: SharedSchemas): JsonSchema {
  if (!isZod(schema)) return schema;
  const { $schema: _dialect, $defs, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  if (!$defs) return rest;
  const prefix = `${name}.`;
  for (const [id, def] of Object.entries($defs as Record<string, JsonSchema>)) shared[`${prefix}${id}`] = rewriteRefs(def, prefix) as JsonSchema;
  return rewriteRefs(rest, prefix) as JsonSchema;
}
