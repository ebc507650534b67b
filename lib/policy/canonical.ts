import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * Canonical form of tool arguments: RFC 8785 JSON Canonicalization Scheme (via the
 * `canonicalize` library, 4.x: the last line that declares Node 20, which package.json
 * supports; its output on JSON values is that of 5.x) and its SHA-256. The RiskGate recomputes both and never trusts
 * a hash the model produced (docs/architecture.md#the-graph).
 */
export interface CanonicalArgs {
  /** RFC 8785 canonical JSON text. */
  canonical: string;
  /** Lower-case hex SHA-256 of the UTF-8 bytes of `canonical` (64 chars). */
  hash: string;
}

/**
 * Canonicalizes a JSON value per RFC 8785.
 * @throws TypeError when the value is not JSON-serializable (undefined at top level,
 *   functions, BigInt, non-finite numbers, lone surrogates) or nests so deeply that
 *   serializing it overflows the stack (the library recurses once per level).
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) throw new TypeError("arguments are undefined");
  let out: string | undefined;
  try {
    out = canonicalize(value);
  } catch (err) {
    if (err instanceof RangeError) throw new TypeError("arguments nest too deeply to canonicalize");
    throw err;
  }
  if (out === undefined) throw new TypeError("arguments are not JSON-serializable");
  return out;
}

/** SHA-256 of a string's UTF-8 bytes, as lower-case hex. */
export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/**
 * Canonical JSON and its hash in one call (RFC 8785 + SHA-256).
 * @throws TypeError as {@link canonicalJson}.
 */
export function canonicalArgs(value: unknown): CanonicalArgs {
  const canonical = canonicalJson(value);
  return { canonical, hash: sha256Hex(canonical) };
}
