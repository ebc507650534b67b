/**
 * Finds where a JSON text nests deeper than `maxDepth` containers, in one linear pass and
 * without recursion, so a hostile body is refused before `JSON.parse` or any recursive walk
 * (canonical JSON, zod, Prisma) sees it (docs/security.md "Input limits").
 *
 * Brackets inside strings do not count; `\"` and `\\` escapes are followed. The text need
 * not be valid JSON: the scan only counts, and `JSON.parse` judges validity afterwards.
 *
 * @param text the raw body (any length; time is linear, memory constant).
 * @param maxDepth the deepest nesting allowed; `{"a":[1]}` has depth 2, a scalar depth 0.
 * @returns the index (UTF-16 code unit) of the bracket that goes one level too deep, or -1
 *   when the text stays within `maxDepth`.
 */
export function jsonDepthOverflow(text: string, maxDepth: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > maxDepth) return i;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return -1;
}
