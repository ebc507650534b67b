import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { AppError } from "../errors";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 32-byte AES-256 key from a server secret (SHA-256 of its UTF-8 bytes). */
export function keyFromSecret(secret: string): Buffer {
  return createHash("sha256").update(secret, "utf8").digest();
}

/**
 * Encrypts a secret at rest with AES-256-GCM (NIST SP 800-38D): a random 12-byte IV per
 * value, a 16-byte tag. Output: base64url of iv | ciphertext | tag.
 * @throws Error when the key is not 32 bytes.
 */
export function encryptSecret(plaintext: string, key: Buffer): string {
  if (key.length !== 32) throw new Error("AES-256-GCM needs a 32-byte key");
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
}

/**
 * Decrypts a value of {@link encryptSecret}.
 * @throws AppError internal ("secret_unreadable") when the value was altered or the key is
 *   not the one it was sealed with.
 */
export function decryptSecret(token: string, key: Buffer): string {
  const raw = Buffer.from(token, "base64url");
  if (raw.length < IV_BYTES + TAG_BYTES) throw new AppError("internal", "secret_unreadable", "A stored secret is truncated.");
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    throw new AppError("internal", "secret_unreadable", "A stored secret cannot be decrypted: it was altered, or the server key changed.");
  }
}
