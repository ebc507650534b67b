/**
 * The edit form of an approval, derived from the tool's input schema (JSON Schema, as
 * zod's `z.toJSONSchema` writes it for built-ins and as MCP servers declare it): one field
 * per argument, and the way back from the form's values to an arguments object. Client-safe.
 *
 * A field shows an argument exactly: when the proposed value does not fit the field its
 * schema asks for (a number where the schema says string, a null, an unknown enum value),
 * the field falls back to JSON, so an untouched form always gives back the proposed
 * arguments unchanged (and the same RFC 8785 hash).
 */

/**
 * How a field is shown: a one-line text input, a multi-line textarea, a number input, a
 * checkbox (required booleans), a select (enums, and optional booleans so "not set" stays
 * possible), or a JSON textarea (objects, arrays, anything the form cannot show).
 */
export type FieldKind = "text" | "textarea" | "number" | "checkbox" | "select" | "json";

/** One argument's field. Lengths are in characters (Unicode code points, as JSON Schema counts). */
export interface SchemaField {
  /** The argument's name (the property of the input schema). */
  name: string;
  kind: FieldKind;
  /** The schema lists the argument in `required`. */
  required: boolean;
  /** The schema's description, shown under the field. */
  description?: string;
  /** A select's choices, in the schema's order. */
  options?: unknown[];
  /** Number fields: whole numbers only (`type: "integer"`). */
  integer?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  /** A regular expression (ECMAScript, `u` flag) a text must match. */
  pattern?: string;
  /** What a JSON field must hold, when the schema says. */
  jsonType?: "object" | "array";
  /** The argument is in the proposal but not in the schema: kept, as JSON. */
  extra?: boolean;
}

/** Form values by field key (`f0`, `f1`… in field order: argument names may hold dots). */
export type FormValues = Record<string, string | boolean>;

/** The form key of the field at `index`. */
export const fieldKey = (index: number): string => `f${index}`;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** Argument names whose text is usually long: their field is a textarea. */
const LONG_TEXT = /^(content|body|text|code|script|source|markdown|message|prompt|query|template|notes?)$/i;

/** `{anyOf: [X, {type: "null"}]}` and `type: ["X", "null"]` read as X; anything else as is. */
function unwrapNullable(prop: Json): Json {
  for (const key of ["anyOf", "oneOf"] as const) {
    const list = prop[key];
    if (Array.isArray(list)) {
      const rest = list.filter((s) => !(isObject(s) && s.type === "null"));
      return rest.length === 1 && isObject(rest[0]) ? { ...rest[0], description: prop.description ?? rest[0].description } : prop;
    }
  }
  if (Array.isArray(prop.type)) {
    const rest = prop.type.filter((t) => t !== "null");
    return rest.length === 1 ? { ...prop, type: rest[0] } : { ...prop, type: undefined };
  }
  return prop;
}

/** The field for one property, given the proposed value (`present` false when absent). */
function fieldOf(name: string, raw: unknown, required: boolean, value: unknown, present: boolean): SchemaField {
  const prop = isObject(raw) ? unwrapNullable(raw) : {};
  const base: SchemaField = { name, kind: "json", required, ...(typeof prop.description === "string" ? { description: prop.description } : {}) };
  const fits = (ok: boolean) => !present || ok;
  const choices = Array.isArray(prop.enum) ? prop.enum : "const" in prop ? [prop.const] : null;
  if (choices && choices.length > 0) {
    return fits(choices.some((c) => JSON.stringify(c) === JSON.stringify(value))) ? { ...base, kind: "select", options: choices } : base;
  }
  const type = typeof prop.type === "string" ? prop.type : undefined;
  if (type === "string" && fits(typeof value === "string")) {
    const text = typeof value === "string" ? value : "";
    const long = LONG_TEXT.test(name) || text.includes("\n") || text.length > 120;
    return {
      ...base,
      kind: long ? "textarea" : "text",
      ...(num(prop.minLength) !== undefined ? { minLength: num(prop.minLength) } : {}),
      ...(num(prop.maxLength) !== undefined ? { maxLength: num(prop.maxLength) } : {}),
      ...(typeof prop.pattern === "string" ? { pattern: prop.pattern } : {}),
    };
  }
  if ((type === "number" || type === "integer") && fits(typeof value === "number" && (type === "number" || Number.isInteger(value)))) {
    const bounds = { minimum: num(prop.minimum), maximum: num(prop.maximum), exclusiveMinimum: num(prop.exclusiveMinimum), exclusiveMaximum: num(prop.exclusiveMaximum) };
    return { ...base, kind: "number", integer: type === "integer", ...Object.fromEntries(Object.entries(bounds).filter(([, v]) => v !== undefined)) };
  }
  if (type === "boolean" && fits(typeof value === "boolean")) {
    return required ? { ...base, kind: "checkbox" } : { ...base, kind: "select", options: [true, false] };
  }
  if (type === "object" || type === "array") return { ...base, jsonType: type };
  return base;
}

/**
 * The fields of a tool's input schema, one per property in the schema's order, then one
 * JSON field per proposed argument the schema does not declare.
 * @param schema the tool's input JSON Schema (an object schema with `properties`).
 * @param args the proposed arguments.
 * @returns null when the schema is not an object schema with properties: the edit then
 *   stays a JSON textarea.
 */
export function schemaFields(schema: unknown, args: Record<string, unknown>): SchemaField[] | null {
  if (!isObject(schema) || !isObject(schema.properties) || (schema.type !== undefined && schema.type !== "object")) return null;
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  const props = schema.properties;
  const fields = Object.entries(props).map(([name, prop]) => fieldOf(name, prop, required.has(name), args[name], Object.hasOwn(args, name)));
  for (const name of Object.keys(args)) {
    if (!Object.hasOwn(props, name)) fields.push({ name, kind: "json", required: false, extra: true });
  }
  return fields.length > 0 ? fields : null;
}

/**
 * The form's starting values for `args`: each field's text (selects: the index of the
 * choice; absent arguments: empty; checkboxes: the boolean).
 */
export function initialValues(fields: SchemaField[], args: Record<string, unknown>): FormValues {
  const values: FormValues = {};
  for (const [i, f] of fields.entries()) {
    const present = Object.hasOwn(args, f.name);
    const v = args[f.name];
    const key = fieldKey(i);
    if (f.kind === "checkbox") values[key] = v === true;
    else if (!present) values[key] = "";
    else if (f.kind === "select") values[key] = String(f.options?.findIndex((o) => JSON.stringify(o) === JSON.stringify(v)) ?? "");
    else if (f.kind === "json") values[key] = JSON.stringify(v, null, 2) ?? "";
    else values[key] = String(v);
  }
  return values;
}

/** Why a text breaks the field's string rules, or null. */
function textProblem(f: SchemaField, text: string): string | null {
  const length = [...text].length;
  if (f.minLength !== undefined && length < f.minLength) return f.minLength === 1 ? "must not be empty" : `must be at least ${f.minLength} characters (it has ${length})`;
  if (f.maxLength !== undefined && length > f.maxLength) return `must be at most ${f.maxLength} characters (it has ${length})`;
  if (f.pattern !== undefined) {
    let re: RegExp | null = null;
    try {
      re = new RegExp(f.pattern, "u");
    } catch {
      // A pattern this browser cannot compile is left to the server's check.
    }
    if (re && !re.test(text)) return `must match the pattern ${f.pattern}`;
  }
  return null;
}

/** Why a number breaks the field's rules, or null. */
function numberProblem(f: SchemaField, n: number): string | null {
  if (f.integer && !Number.isInteger(n)) return "must be a whole number";
  if (f.minimum !== undefined && n < f.minimum) return `must be at least ${f.minimum}`;
  if (f.maximum !== undefined && n > f.maximum) return `must be at most ${f.maximum}`;
  if (f.exclusiveMinimum !== undefined && n <= f.exclusiveMinimum) return `must be more than ${f.exclusiveMinimum}`;
  if (f.exclusiveMaximum !== undefined && n >= f.exclusiveMaximum) return `must be less than ${f.exclusiveMaximum}`;
  return null;
}

/** One field's value as an argument: `skip` leaves it out; `error` says what is wrong. */
function fieldValue(f: SchemaField, raw: string | boolean, wasPresent: boolean): { value: unknown } | { skip: true } | { error: string } {
  if (f.kind === "checkbox") return { value: raw === true };
  const text = typeof raw === "string" ? raw : "";
  const missing = () => (f.required ? { error: "is required" } : { skip: true as const });
  switch (f.kind) {
    case "text":
    case "textarea": {
      // An empty optional text the proposal did not have stays absent.
      if (text === "" && !f.required && !wasPresent) return { skip: true };
      const problem = textProblem(f, text);
      return problem ? { error: problem } : { value: text };
    }
    case "number": {
      if (text.trim() === "") return missing();
      const n = Number(text);
      if (!Number.isFinite(n)) return { error: "must be a number" };
      const problem = numberProblem(f, n);
      return problem ? { error: problem } : { value: n };
    }
    case "select": {
      if (text === "") return missing();
      const options = f.options ?? [];
      const i = Number(text);
      return Number.isInteger(i) && i >= 0 && i < options.length ? { value: options[i] } : { error: "pick one of the choices" };
    }
    case "json": {
      if (text.trim() === "") return missing();
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        return { error: `is not valid JSON (${err instanceof Error ? err.message : String(err)})` };
      }
      if (f.jsonType === "object" && !isObject(value)) return { error: 'must be a JSON object, e.g. {"key": "value"}' };
      if (f.jsonType === "array" && !Array.isArray(value)) return { error: "must be a JSON array, e.g. [1, 2]" };
      return { value };
    }
  }
}

/**
 * The arguments the form's values give, or the problems of each field.
 * @param original the proposed arguments: an empty optional text field stays absent only
 *   when the proposal did not have it either.
 * @returns `{ args }`, or `{ errors }` keyed by argument name, each message starting with the
 *   argument's name (e.g. `path: must not be empty`).
 */
export function argsFromValues(fields: SchemaField[], values: FormValues, original: Record<string, unknown>): { args: Record<string, unknown> } | { errors: Record<string, string> } {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const [i, f] of fields.entries()) {
    const out = fieldValue(f, values[fieldKey(i)] ?? "", Object.hasOwn(original, f.name));
    if ("error" in out) errors[f.name] = `${f.name}: ${out.error}`;
    else if ("value" in out) args[f.name] = out.value;
  }
  return Object.keys(errors).length > 0 ? { errors } : { args };
}
