import prettyBytes from "pretty-bytes";

/**
 * The one way the app shows a size, so a file never reads "1869 characters" in one place,
 * "1,949 chars" in another and "1870 B" in a third:
 * - a file (workspace files, downloads) is measured in bytes, the unit of storage, shown in
 *   decimal SI units with three significant digits: 392 -> "392 B", 1870 -> "1.87 kB",
 *   2_500_000 -> "2.5 MB" ({@link formatBytes});
 * - a text (tool inputs and outputs, evicted outputs, step results, memory entries) is
 *   measured in characters, the unit the engine cuts, evicts and rehydrates by (the limits
 *   in lib/engine/eviction.ts are characters), shown in full with thousands separators and
 *   the word spelt out: 1869 -> "1,869 characters" ({@link formatChars}).
 * Both are en-US so that the server and the browser render the same text.
 */

const COUNT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/**
 * A size in bytes as people read it: "0 B", "392 B", "1.87 kB", "2.5 MB" (SI units, powers
 * of 1000, at most three significant digits).
 * @param bytes a size in bytes; negative or non-finite values show as "0 B".
 */
export function formatBytes(bytes: number): string {
  return prettyBytes(Number.isFinite(bytes) && bytes > 0 ? bytes : 0, { locale: "en-US" });
}

/**
 * A length of text: "1 character", "1,869 characters".
 * @param chars a length in characters (UTF-16 code units, as `String.length` counts them).
 */
export function formatChars(chars: number): string {
  const n = Number.isFinite(chars) && chars > 0 ? Math.round(chars) : 0;
  return `${COUNT.format(n)} character${n === 1 ? "" : "s"}`;
}
