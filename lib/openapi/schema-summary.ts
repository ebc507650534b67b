import type { JsonSchema } from "./operation";

/**
 * Short words for a JSON Schema (draft 2020-12), for the API reference page: what type a
 * value has and which rules it must meet, without printing the schema itself.
 */

const asSchema = (v: unknown): JsonSchema | undefined => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as JsonSchema) : undefined);

const literal = (v: unknown) => JSON.stringify(v);

/** The branches of a `oneOf` / `anyOf`, or none. */
export function schemaBranches(s: JsonSchema): JsonSchema[] {
  const list = s.oneOf ?? s.anyOf;
  return Array.isArray(list) ? list.map(asSchema).filter((b): b is JsonSchema => b !== undefined) : [];
}

/** The properties of an object schema (with whether each is required), or none. */
export function schemaProperties(s: JsonSchema): { name: string; schema: JsonSchema; required: boolean }[] {
  const props = asSchema(s.properties);
  if (!props) return [];
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
  return Object.entries(props).map(([name, v]) => ({ name, schema: asSchema(v) ?? {}, required: required.has(name) }));
}

/**
 * The type in a few words: `string`, `integer`, `"stdio"` (a const), `"a" | "b"` (an enum),
 * `array of string`, `map of string`, `one of 3 shapes`, `Error` (a `$ref`), `string | null`,
 * `any` for the empty schema.
 */
export function schemaType(s: JsonSchema): string {
  if (typeof s.$ref === "string") return s.$ref.split("/").pop() ?? s.$ref;
  if ("const" in s) return literal(s.const);
  if (Array.isArray(s.enum)) return s.enum.map(literal).join(" | ");
  const branches = schemaBranches(s);
  if (branches.length) {
    const types = branches.map(schemaType);
    const simple = types.every((t) => !t.includes("shape") && !t.startsWith("object"));
    return simple ? types.join(" | ") : `one of ${branches.length} shapes`;
  }
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : [];
  if (types.length === 0) return asSchema(s.properties) ? "object" : "any";
  return types
    .map((t) => {
      if (t === "array") return `array of ${schemaType(asSchema(s.items) ?? {})}`;
      if (t === "object" && !asSchema(s.properties) && asSchema(s.additionalProperties)) return `map of ${schemaType(asSchema(s.additionalProperties) ?? {})}`;
      if (t === "string" && typeof s.format === "string") return `string (${s.format})`;
      return t;
    })
    .join(" | ");
}

/**
 * The rules a value must meet, each in a few words: lengths (`1-64 chars`), bounds
 * (`0 or more`), item counts, the pattern, the default. Bounds at JavaScript's safe-integer
 * limits (which zod adds to `.int()`) are left out.
 */
export function schemaRules(s: JsonSchema): string[] {
  const rules: string[] = [];
  const range = (lo: unknown, hi: unknown, unit: string) => {
    const a = typeof lo === "number" && lo > 0 ? lo : undefined;
    const b = typeof hi === "number" && Math.abs(hi) < Number.MAX_SAFE_INTEGER ? hi : undefined;
    if (a !== undefined && b !== undefined) rules.push(`${a}-${b} ${unit}`);
    else if (a !== undefined) rules.push(`at least ${a} ${unit}`);
    else if (b !== undefined) rules.push(`at most ${b} ${unit}`);
  };
  range(s.minLength, s.maxLength, "chars");
  range(s.minItems, s.maxItems, "items");
  const min = typeof s.minimum === "number" && Math.abs(s.minimum) < Number.MAX_SAFE_INTEGER ? s.minimum : undefined;
  const max = typeof s.maximum === "number" && Math.abs(s.maximum) < Number.MAX_SAFE_INTEGER ? s.maximum : undefined;
  if (min !== undefined && max !== undefined) rules.push(`${min} to ${max}`);
  else if (min !== undefined) rules.push(`${min} or more`);
  else if (max !== undefined) rules.push(`at most ${max}`);
  if (typeof s.exclusiveMinimum === "number") rules.push(`over ${s.exclusiveMinimum}`);
  if (typeof s.pattern === "string" && s.format === undefined) rules.push(`pattern ${s.pattern}`);
  if (s.additionalProperties === false) rules.push("no other keys");
  if ("default" in s) rules.push(`default ${literal(s.default)}`);
  return rules;
}

/** Whether a schema has fields to list: properties, or a union with a branch that has them. */
function structured(s: JsonSchema): boolean {
  return schemaProperties(s).length > 0 || schemaBranches(s).some(structured);
}

/** The schema whose fields to list below a value (an object's own, an array's items', a map's values'), or undefined for a plain value. */
export function nestedSchema(s: JsonSchema): JsonSchema | undefined {
  return [s, asSchema(s.items), asSchema(s.additionalProperties)].find((c): c is JsonSchema => c !== undefined && structured(c));
}
