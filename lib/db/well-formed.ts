/**
 * Strings that reach the database are well-formed Unicode (docs/security.md "Input limits").
 * Requests are checked at the boundary, but text also arrives from elsewhere: an MCP
 * server's answer, a model's output, a fetched page. A lone UTF-16 surrogate in any query
 * argument makes Prisma's query engine throw, which would crash a run, and PostgreSQL refuses
 * a NUL character in text (SQLite stores it), so every string argument is repaired on the way
 * in: each lone surrogate and each NUL becomes U+FFFD, on both databases alike
 * (docs/databases.md).
 */

/** Deepest nesting of query arguments walked; deeper values are passed on unchanged. */
const MAX_DEPTH = 64;

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The string well-formed and without NUL; the same string when it already is. */
function storable(s: string): string {
  const formed = s.isWellFormed() ? s : s.toWellFormed();
  return formed.includes("\u0000") ? formed.replaceAll("\u0000", "\uFFFD") : formed;
}

/**
 * `value` with every string made well-formed (`String#toWellFormed`) and every NUL replaced
 * by U+FFFD, in strings, arrays and plain objects (Dates, buffers and other class instances
 * are left alone). Copies only what changes: a value without a lone surrogate or NUL is
 * returned as it is.
 */
export function wellFormedDeep<T>(value: T, depth = 0): T {
  if (typeof value === "string") return storable(value) as T;
  if (value === null || typeof value !== "object" || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    value.forEach((item, i) => {
      const fixed = wellFormedDeep(item, depth + 1);
      if (fixed !== item) {
        out ??= [...value];
        out[i] = fixed;
      }
    });
    return (out ?? value) as T;
  }
  if (!isPlainObject(value)) return value;
  let out: Record<string, unknown> | null = null;
  for (const [key, item] of Object.entries(value)) {
    const fixed = wellFormedDeep(item, depth + 1);
    if (fixed !== item) {
      out ??= { ...value };
      out[key] = fixed;
    }
  }
  return (out ?? value) as T;
}
