import canonicalize from "canonicalize";

/**
 * In the browser, the RFC 8785 canonical form of edited arguments and its SHA-256 (hex),
 * the same pair the server recomputes (lib/policy/canonical.ts), so an approver sees the
 * hash of exactly what they send. The server never trusts this value: it canonicalises
 * and hashes the edit again (docs/architecture.md#the-graph).
 * @returns null when the value is not JSON-serializable or Web Crypto is unavailable
 *   (pages served over plain http from a non-local host).
 */
export async function canonicalHash(value: unknown): Promise<{ canonical: string; hash: string } | null> {
  const canonical = canonicalize(value);
  if (canonical === undefined || typeof crypto === "undefined" || !crypto.subtle) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical));
  const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { canonical, hash };
}
