import { createHmac, randomBytes } from "node:crypto";

/**
 * Webhook signatures as the Standard Webhooks specification writes them (docs/webhooks.md
 * "Signatures"): the secret is `whsec_` followed by base64 of 32 random bytes; the HMAC key
 * is those 32 bytes (the base64 part decoded); the signed content is
 * `<webhook-id>.<webhook-timestamp>.<body>`; the `webhook-signature` header is
 * `v1,<base64 HMAC-SHA256>`.
 */

/** The prefix of every webhook signing secret. */
export const SECRET_PREFIX = "whsec_";

/** A new signing secret: `whsec_` + base64 of 32 random bytes (50 chars). */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

/**
 * The HMAC key of a secret: the base64 after `whsec_` decoded (Standard Webhooks). A secret
 * without the prefix is decoded whole.
 */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}

/**
 * The base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` under the secret's key.
 * @param timestamp unix seconds, as sent in `webhook-timestamp`.
 */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  return createHmac("sha256", secretKey(secret)).update(`${id}.${timestamp}.${body}`, "utf8").digest("base64");
}

/** The three headers of one attempt (docs/webhooks.md "Headers"). */
export type WebhookHeaders = {
  "webhook-id": string;
  /** Unix seconds, as a decimal string. */
  "webhook-timestamp": string;
  /** `v1,<base64 signature>`. */
  "webhook-signature": string;
};

/**
 * Signs one attempt: the headers to send with `body`.
 * @param id the delivery id (the same for every retry of one delivery; a redelivery has its own).
 * @param nowMs the attempt's time, ms since the epoch (default: now); sent as unix seconds.
 */
export function signWebhook(secret: string, id: string, body: string, nowMs: number = Date.now()): WebhookHeaders {
  const timestamp = Math.floor(nowMs / 1000);
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": `v1,${signatureOf(secret, id, timestamp, body)}` };
}
