/**
 * Which channel values the checkpointer stores inline, in the checkpoint row itself
 * (docs/storage.md "Inline values"): the size limit, a size estimate that needs no
 * serialization, and the characters PostgreSQL's JSON functions cannot read back.
 */

/**
 * The largest serialized channel value (bytes) stored inline, in the checkpoint row itself,
 * rather than as a `CheckpointBlob` row (docs/storage.md "Inline values"). Small values are
 * written again with every checkpoint, but a put is then one row and a read needs no blob
 * lookup; larger ones stay one blob per version, written once and shared by every checkpoint
 * that names that version. Only values the serde writes as "json" are inlined.
 */
export const INLINE_MAX_BYTES = 1024;

/**
 * What is left of `budget` (bytes) after the JSON of `value`, counted without serializing it
 * and never under its real size: null, booleans, numbers (at most 24 characters), strings (as
 * if each character took a 6-byte `\uXXXX` escape), and plain arrays and objects of those;
 * -1 when over budget or for any other value (the serde may write those differently), which
 * the caller then serializes to know. A string or key that is not {@link sqlJsonSafe} also
 * gives -1.
 */
export function jsonBudgetLeft(value: unknown, budget: number): number {
  if (budget < 0) return -1;
  if (value === null || typeof value === "boolean") return budget - 5;
  if (typeof value === "number") return budget - 24;
  if (typeof value === "string") return sqlJsonSafe(value) ? budget - (value.length * 6 + 2) : -1;
  if (typeof value !== "object") return -1;
  let left = budget - 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      left = jsonBudgetLeft(item, left - 1);
      if (left < 0) return -1;
    }
    return left;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return -1;
  for (const [key, item] of Object.entries(value)) {
    if (!sqlJsonSafe(key)) return -1;
    left = jsonBudgetLeft(item, left - (key.length * 6 + 3));
    if (left < 0) return -1;
  }
  return left;
}

/**
 * Whether a string's JSON escape can be read by PostgreSQL's JSON functions: not when it holds
 * U+0000 (written `\u0000`, "unsupported Unicode escape sequence") or a lone surrogate
 * (written `\udXXX`, "Unicode low surrogate must follow a high surrogate"). The checkpoint
 * row is read with `::json` in SQL (lib/db/checkpointer-pg.ts), so a value holding either is
 * never inlined: one such message (a NUL pasted into a task) made every later read of the
 * thread fail (docs/storage.md "Inline values").
 */
export function sqlJsonSafe(text: string): boolean {
  return !text.includes("\0") && text.isWellFormed();
}

/** The same rule on serialized JSON bytes: no `\u0000` and no `\ud` escape (a lone surrogate). */
export function sqlJsonBytesSafe(bytes: Uint8Array): boolean {
  const json = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return !json.includes("\\u0000") && !json.includes("\\ud");
}
