import { createHash, randomBytes } from "node:crypto";

/**
 * The shape of an API key (docs/api.md "API keys"): `phy_` and 32 random bytes in base64url
 * (43 characters), 47 characters in all. Only its SHA-256 and its first 12 characters are
 * stored; the key itself is shown once, when it is made.
 */

/** What every key starts with, so that scanners and people can tell a Phylactery key. */
export const API_KEY_PREFIX = "phy_";

/** Random bytes in a key (256 bits). */
export const API_KEY_BYTES = 32;

/** Characters of a key kept in clear to tell keys apart: "phy_" and 8 more. */
export const API_KEY_SHOWN_CHARS = 12;

const KEY_PATTERN = /^phy_[A-Za-z0-9_-]{43}$/;

/** A new random key: `phy_` + base64url of 32 bytes from the system's CSPRNG. */
export function newApiKey(): string {
  return `${API_KEY_PREFIX}${randomBytes(API_KEY_BYTES).toString("base64url")}`;
}

/** True when `raw` has the shape of a key (any other text is refused without a lookup). */
export function isApiKeyShaped(raw: string): boolean {
  return KEY_PATTERN.test(raw);
}

/** SHA-256 of the whole key, lowercase hex (64 chars): what the database stores and looks up. */
export function hashApiKey(raw: string): string {
  return createHash("sha256").update(raw, "utf8").digest("hex");
}

/** The clear part of a key shown in Settings: its first {@link API_KEY_SHOWN_CHARS} characters. */
export function apiKeyPrefix(raw: string): string {
  return raw.slice(0, API_KEY_SHOWN_CHARS);
}
