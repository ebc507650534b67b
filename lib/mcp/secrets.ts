import "server-only";
import { hkdfSync } from "node:crypto";
import { decryptSecret, encryptSecret } from "../crypto/aes-gcm";
import { providerKey } from "../models/provider-settings";

/**
 * MCP server secrets at rest: a JSON object of environment variables (stdio) or
 * request headers (http), sealed with AES-256-GCM (NIST SP 800-38D, lib/crypto/aes-gcm.ts)
 * like provider API keys. The key is derived from the provider-key secret with HKDF-SHA256
 * (RFC 5869) under its own label, so the two kinds of ciphertext never share a key.
 */

/** The 32-byte AES-256 key for MCP secrets. */
export function mcpSecretsKey(): Buffer {
  return Buffer.from(hkdfSync("sha256", providerKey(), Buffer.alloc(0), "phylactery mcp server secrets v1", 32));
}

/** Seals a secrets object; null when it is empty (nothing stored). */
export function sealSecrets(secrets: Readonly<Record<string, string>>, key: Buffer = mcpSecretsKey()): string | null {
  return Object.keys(secrets).length === 0 ? null : encryptSecret(JSON.stringify(secrets), key);
}

/**
 * Opens a value of {@link sealSecrets}; `{}` for null.
 * @throws AppError internal ("secret_unreadable") when it was altered or the key changed.
 */
export function openSecrets(sealed: string | null, key: Buffer = mcpSecretsKey()): Record<string, string> {
  if (!sealed) return {};
  const value: unknown = JSON.parse(decryptSecret(sealed, key));
  if (typeof value !== "object" || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"));
}
