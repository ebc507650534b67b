import "server-only";
import type { Db } from "../db/client";
import { isAppError } from "../errors";
import type { GuardedFetch } from "../net/guarded-fetch";
import { retryDelayMs } from "./backoff";
import type { ClaimedDelivery } from "./claim";
import { openWebhookSecret } from "./secret-box";
import { signWebhook } from "./signature";

/**
 * One attempt of one claimed delivery (docs/webhooks.md "Retries"): POSTs the stored body,
 * signed for this attempt, through the guarded outbound client (no private or loopback
 * address unless the operator opened it; redirects are not followed), waits at most
 * `timeoutMs`, and records the outcome: 2xx succeeded; anything else is tried again after
 * the backoff, or failed after the last attempt. A destination the guard refuses, or a secret
 * that cannot be opened, fails at once: trying again cannot help.
 */

/** How one attempt is made. */
export interface SendOptions {
  fetch: GuardedFetch;
  /** The sender holding the lease (only its own claim is finished). */
  sender: string;
  /** ms */
  timeoutMs: number;
  /** Base delay of the retries, ms. */
  retryBaseMs: number;
}

/** What an attempt came to. */
export type AttemptOutcome = { kind: "succeeded"; status: number } | { kind: "retry" | "failed"; status: number | null; error: string };

const short = (s: string) => (s.length > 300 ? `${s.slice(0, 299)}…` : s);

/** Words for a failed connection: the error's code, never a remote body. */
function describe(err: unknown, timeoutMs: number): string {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) return `no answer within ${timeoutMs / 1000} s`;
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e; depth++, e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return `could not connect (${code})`;
  }
  return "could not connect";
}

/** Makes the attempt; never throws (the outcome says what happened). */
async function attempt(d: ClaimedDelivery, o: SendOptions): Promise<AttemptOutcome> {
  let secret: string;
  try {
    secret = openWebhookSecret(d.endpoint.secret);
  } catch {
    return { kind: "failed", status: null, error: "the signing secret cannot be decrypted (the server key changed): delete this webhook and add it again" };
  }
  try {
    const headers = signWebhook(secret, d.id, d.payload);
    const res = await o.fetch(d.endpoint.url, {
      method: "POST",
      redirect: "manual",
      headers: { ...headers, "content-type": "application/json", "user-agent": "Phylactery-Webhooks/1" },
      body: d.payload,
      signal: AbortSignal.timeout(o.timeoutMs),
    });
    await res.body?.cancel().catch(() => undefined);
    if (res.status >= 200 && res.status < 300) return { kind: "succeeded", status: res.status };
    const redirect = res.status >= 300 && res.status < 400 ? " (redirects are not followed: use the final URL)" : "";
    return { kind: "retry", status: res.status, error: `HTTP ${res.status}${redirect}` };
  } catch (err) {
    if (isAppError(err)) return { kind: "failed", status: null, error: short(err.message) };
    return { kind: "retry", status: null, error: describe(err, o.timeoutMs) };
  }
}

/**
 * Sends one claimed delivery and records the attempt (attempts, lastAttemptAt, lastStatus,
 * lastError, status, nextAttemptAt), releasing the lease in the same conditional update.
 * @returns the outcome (with `retry` turned into `failed` after the last attempt).
 */
export async function sendClaimed(db: Db, d: ClaimedDelivery, o: SendOptions): Promise<AttemptOutcome> {
  const outcome = await attempt(d, o);
  const attempts = d.attempts + 1;
  const at = Date.now();
  const delay = outcome.kind === "retry" ? retryDelayMs(attempts, o.retryBaseMs) : null;
  const final: AttemptOutcome = outcome.kind === "retry" && delay === null ? { ...outcome, kind: "failed" } : outcome;
  const common = { attempts, lastAttemptAt: new Date(at), lockedBy: null, lockedUntil: null };
  const data =
    final.kind === "succeeded"
      ? { ...common, status: "succeeded", lastStatus: final.status, lastError: null, deliveredAt: new Date(at), nextAttemptAt: null }
      : final.kind === "failed"
        ? { ...common, status: "failed", lastStatus: final.status, lastError: final.error, nextAttemptAt: null }
        : { ...common, lastStatus: final.status, lastError: final.error, nextAttemptAt: new Date(at + (delay ?? 0)) };
  await db.webhookDelivery.updateMany({ where: { id: d.id, lockedBy: o.sender }, data });
  return final;
}
