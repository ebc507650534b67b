import { RE2JS } from "re2js";

/**
 * Regular expressions of tenant data (policy argument matchers, Router conditions) run on
 * RE2's linear-time engine (re2js), never on the backtracking `RegExp`: matching costs time
 * proportional to the pattern times the input, whatever the pattern, so no pattern can
 * stall the server (docs/security.md "Regular expressions"). RE2 syntax is Perl-like
 * without backreferences and lookaround.
 */

/** Compiled patterns kept, by flags and source; older ones are dropped first. */
const CACHE_SIZE = 256;
const cache = new Map<string, RE2JS>();

/** Flags a tenant pattern may carry: none, or "i" (ignore case). */
export type LinearFlags = "" | "i";

/**
 * Compiles `source` for RE2 (cached).
 * @throws Error whose message says why the pattern is not valid RE2 syntax (e.g. a
 *   backreference or lookahead).
 */
export function compileLinear(source: string, flags: LinearFlags = ""): RE2JS {
  const key = `${flags}/${source}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source, flags === "i" ? RE2JS.CASE_INSENSITIVE : 0);
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^error parsing regexp: /, "") : String(err);
    throw new Error(why);
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, compiled);
  return compiled;
}

/**
 * Why `source` is not a usable pattern, or null when it compiles (for schema messages).
 */
export function linearRegexProblem(source: string): string | null {
  try {
    compileLinear(source);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * True when `source` matches somewhere in `text` (like `RegExp#test`, unanchored), in time
 * linear in `text`'s length.
 * @throws Error when the pattern does not compile (schemas refuse such patterns first).
 */
export function testLinear(source: string, flags: LinearFlags, text: string): boolean {
  return compileLinear(source, flags).matcher(text).find();
}
