import "server-only";
import { hkdfSync } from "node:crypto";
import { decryptSecret, encryptSecret } from "../crypto/aes-gcm";
import { providerKey } from "../models/provider-settings";

/**
 * Workspace secret values at rest (docs/security.md "Secrets at rest"): sealed with
 * AES-256-GCM (NIST SP 800-38D, lib/crypto/aes-gcm.ts) under a key derived from the
 * provider-key secret with HKDF-SHA256 (RFC 5869) under its own label, as webhook and MCP
 * secrets are, so no two kinds of ciphertext share a key.
 */

/** The 32-byte AES-256 key for workspace secrets. */
export function workspaceSecretsKey(): Buffer {
  return Buffer.from(hkdfSync("sha256", providerKey(), Buffer.alloc(0), "phylactery workspace secrets v1", 32));
}

/** Seals a value for the database (base64url of IV, ciphertext and tag). */
export function sealSecretValue(value: string, key: Buffer = workspaceSecretsKey()): string {
  return encryptSecret(value, key);
}

/**
 * Opens a sealed value.
 * @throws AppError internal ("secret_unreadable") when it was altered or the server key changed.
 */
export function openSecretValue(sealed: string, key: Buffer = workspaceSecretsKey()): string {
  return decryptSecret(sealed, key);
}
