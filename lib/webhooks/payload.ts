import type { WebhookEvent } from "./events";

/**
 * The JSON body of a webhook (docs/webhooks.md "Payloads"): `{ id, type, created_at,
 * workspace_id, data }`. Ids, statuses, the tool's name and the SHA-256 of its arguments,
 * and a link: never the arguments themselves, never a secret, never an approval token.
 */

/** What `data` holds for every event. */
export interface WebhookData {
  thread_id: string;
  /** The run the event is about (for approvals: the run that asked); null when unknown. */
  run_id: string | null;
  /**
   * Runs: completed | incomplete | cancelled | failed. Approvals: pending (required), or
   * approved | rejected | expired (decided).
   */
  status: string;
  /** Approvals only. */
  approval_id?: string;
  /** Approvals only: the tool waiting on the decision. */
  tool?: string;
  /** Approvals only: SHA-256 (hex) of the RFC 8785 canonical arguments shown to the approver. */
  args_hash?: string;
  /** approval.required only: low | medium | high | critical. */
  risk?: string;
  /** approval.required only: when the approval expires (ISO 8601). */
  expires_at?: string;
  /** approval.decided only: approve | edit | respond | reject | ignore | expired. */
  decision?: string;
  /** run.failed only: the run's error code and message (at most 300 chars). */
  error?: { code: string; message: string } | null;
  /** The app's path of the approval (approvals) or the run view (runs). */
  path: string;
  /** `path` on PUBLIC_URL; null when the operator did not set PUBLIC_URL. */
  url: string | null;
}

/** The body of one webhook event. */
export interface WebhookPayload {
  /** The event's id (`evt_...`): the same in a redelivery; one per event and endpoint. */
  id: string;
  type: WebhookEvent;
  /** When the event happened (ISO 8601). */
  created_at: string;
  workspace_id: string;
  data: WebhookData;
}

/**
 * The `path` and `url` of a link into the app.
 * @param publicUrl the operator's PUBLIC_URL, or undefined.
 */
export function linkOf(path: string, publicUrl: string | undefined): { path: string; url: string | null } {
  return { path, url: publicUrl ? `${publicUrl.replace(/\/+$/, "")}${path}` : null };
}
