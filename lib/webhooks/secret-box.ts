import "server-only";
import { hkdfSync } from "node:crypto";
import { decryptSecret, encryptSecret } from "../crypto/aes-gcm";
import { providerKey } from "../models/provider-settings";

/**
 * Webhook signing secrets at rest (docs/security.md "Secrets at rest"): sealed with
 * AES-256-GCM (lib/crypto/aes-gcm.ts) under a key derived from the provider-key secret with
 * HKDF-SHA256 (RFC 5869) under its own label, as MCP server secrets are, so no two kinds of
 * ciphertext share a key.
 */

/** The 32-byte AES-256 key for webhook secrets. */
export function webhookSecretsKey(): Buffer {
  return Buffer.from(hkdfSync("sha256", providerKey(), Buffer.alloc(0), "phylactery webhook signing secrets v1", 32));
}

/** Seals a signing secret for the database. */
export function sealWebhookSecret(secret: string, key: Buffer = webhookSecretsKey()): string {
  return encryptSecret(secret, key);
}

/**
 * Opens a sealed signing secret.
 * @throws AppError internal ("secret_unreadable") when it was altered or the server key changed.
 */
export function openWebhookSecret(sealed: string, key: Buffer = webhookSecretsKey()): string {
  return decryptSecret(sealed, key);
}
