import { z } from "zod";

/** A tool's input schema as zod, and whether it checks everything the JSON Schema says. */
export interface ConvertedSchema {
  schema: z.ZodType<Record<string, unknown>>;
  /** Null when converted; else why the gateway checks only that the input is an object. */
  problem: string | null;
}

const cache = new Map<string, ConvertedSchema>();

/** The fallback: any JSON object (MCP tool arguments are always an object). */
const anyObject = (): z.ZodType<Record<string, unknown>> => z.looseObject({});

/**
 * A zod schema from an MCP tool's `inputSchema` (JSON Schema, usually draft 2020-12 or 07),
 * with zod's `z.fromJSONSchema`, so the gateway refuses bad arguments before the server sees
 * them (tools declare input schemas; the gateway validates). The schema must
 * also turn back into JSON Schema, since the model is sent it.
 * When it cannot be converted (e.g. `$ref` to a missing definition, `if`/`then`), the result
 * accepts any JSON object and `problem` says why: the caller puts that in the tool's
 * description, so validation is never skipped silently. Results are cached by schema text.
 */
export function inputSchemaToZod(inputSchema: unknown): ConvertedSchema {
  const key = JSON.stringify(inputSchema ?? null);
  const hit = cache.get(key);
  if (hit) return hit;
  const converted = convert(inputSchema);
  if (cache.size >= 500) cache.clear();
  cache.set(key, converted);
  return converted;
}

function convert(inputSchema: unknown): ConvertedSchema {
  if (typeof inputSchema !== "object" || inputSchema === null || Array.isArray(inputSchema)) {
    return { schema: anyObject(), problem: "the server declared no input schema object" };
  }
  const declared = (inputSchema as { type?: unknown }).type;
  if (declared !== undefined && declared !== "object") return { schema: anyObject(), problem: `its input schema has type ${JSON.stringify(declared)}, not "object"` };
  try {
    const schema = z.fromJSONSchema({ type: "object", ...inputSchema }) as z.ZodType<Record<string, unknown>>;
    // The engine sends the schema to the model as JSON Schema: it must convert back.
    z.toJSONSchema(schema, { io: "input" });
    // A schema must describe objects; a schema that accepts a string would let anything through.
    if (schema.safeParse("not an object").success) return { schema: anyObject(), problem: "its input schema does not require an object" };
    return { schema, problem: null };
  } catch (err) {
    return { schema: anyObject(), problem: `its input schema cannot be checked here (${err instanceof Error ? err.message : String(err)})` };
  }
}
