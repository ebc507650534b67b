import { isDeepStrictEqual } from "node:util";

/**
 * The Platform API's metadata filter (docs/langgraph-api.md#threads): every key of `filter`
 * must be present in `metadata` with an equal (deeply equal) value. No filter matches all.
 */
export function matchesMetadata(metadata: Record<string, unknown>, filter: Record<string, unknown> | undefined): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([k, v]) => Object.hasOwn(metadata, k) && isDeepStrictEqual(metadata[k], v));
}

/**
 * A stored JSON object column (Thread.metadata, ApiThread.metadata) as an object; anything
 * else (a corrupt or non-object value) reads as `{}`.
 */
export function parseMetadata(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
