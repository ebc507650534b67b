import { createHmac, timingSafeEqual } from "node:crypto";
import { canonicalJson } from "../policy/canonical";

/**
 * The fields of an approval challenge that its HMAC covers (docs/architecture.md#approvals): any change to one
 * of them invalidates the signature.
 */
export interface ChallengeFields {
  id: string;
  threadId: string;
  userId: string;
  toolName: string;
  /** SHA-256 hex of the RFC 8785 canonical arguments. */
  argsHash: string;
  /** Creation time, ms since the epoch. */
  createdAt: number;
  /** Expiry, ms since the epoch. */
  expiresAt: number;
}

/**
 * HMAC-SHA256 over the canonical JSON of the challenge fields, base64url (43 chars).
 * This value is the approval token the approver presents.
 * @throws Error when the secret is shorter than 32 bytes.
 */
export function signChallenge(secret: string, fields: ChallengeFields): string {
  if (Buffer.byteLength(secret, "utf8") < 32) throw new Error("approval secret must be at least 32 bytes");
  const payload = canonicalJson({
    argsHash: fields.argsHash,
    createdAt: fields.createdAt,
    expiresAt: fields.expiresAt,
    id: fields.id,
    threadId: fields.threadId,
    toolName: fields.toolName,
    userId: fields.userId,
  });
  return createHmac("sha256", secret).update(payload, "utf8").digest("base64url");
}

/**
 * Constant-time check of a presented token against the signature recomputed from the
 * stored fields. Forged, truncated or padded tokens are refused.
 */
export function verifyChallenge(secret: string, fields: ChallengeFields, token: string): boolean {
  const expected = Buffer.from(signChallenge(secret, fields), "utf8");
  const given = Buffer.from(token, "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected);
}
