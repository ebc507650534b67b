import { timingSafeEqual } from "node:crypto";
import { signatureOf } from "./signature";

/**
 * Checks a webhook the way a receiver should (docs/webhooks.md "Verifying a webhook"): the
 * three headers are present, the timestamp is within `toleranceSec` of now (either way, so
 * an old message cannot be replayed and a future one cannot be stored for later), and one of
 * the `v1,` signatures in `webhook-signature` (space-separated) equals the HMAC of
 * `<id>.<timestamp>.<body>`, compared in constant time.
 */

/** Why a webhook was refused. */
export type WebhookRefusal = "missing_headers" | "bad_timestamp" | "timestamp_too_old" | "timestamp_too_new" | "bad_signature";

/** Headers as a plain object (any case) or a `Headers` instance. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(h: HeaderSource, name: string): string | undefined {
  if (typeof (h as Headers).get === "function") return (h as Headers).get(name) ?? undefined;
  const entry = Object.entries(h).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(entry) ? entry[0] : entry;
}

/**
 * Verifies a received webhook.
 * @param secret the endpoint's `whsec_...` secret.
 * @param body the raw body exactly as received (not re-serialized JSON).
 * @param options.toleranceSec the replay window in seconds (default 300); `nowMs` the clock (tests).
 * @returns `{ ok: true }`, or `{ ok: false, reason }`. Never throws.
 */
export function verifyWebhook(secret: string, headers: HeaderSource, body: string, options: { toleranceSec?: number; nowMs?: number } = {}): { ok: true } | { ok: false; reason: WebhookRefusal } {
  const id = header(headers, "webhook-id");
  const ts = header(headers, "webhook-timestamp");
  const sig = header(headers, "webhook-signature");
  if (!id || !ts || !sig) return { ok: false, reason: "missing_headers" };
  if (!/^\d{1,12}$/.test(ts)) return { ok: false, reason: "bad_timestamp" };
  const timestamp = Number(ts);
  const now = Math.floor((options.nowMs ?? Date.now()) / 1000);
  const tolerance = options.toleranceSec ?? 300;
  if (timestamp < now - tolerance) return { ok: false, reason: "timestamp_too_old" };
  if (timestamp > now + tolerance) return { ok: false, reason: "timestamp_too_new" };
  const expected = Buffer.from(signatureOf(secret, id, timestamp, body), "base64");
  for (const part of sig.split(" ")) {
    const [version, value] = part.split(",", 2);
    if (version !== "v1" || !value) continue;
    const given = Buffer.from(value, "base64");
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true };
  }
  return { ok: false, reason: "bad_signature" };
}
