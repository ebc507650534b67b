import { z } from "zod";

/**
 * The events a workspace's webhooks can listen to (docs/webhooks.md "Events"):
 * `approval.required` (a tool call waits on a person), `approval.decided` (approved, edited,
 * answered, rejected, ignored or expired), `run.finished` (a run ended: completed,
 * incomplete or cancelled) and `run.failed` (a run stopped on an error).
 */
export const WEBHOOK_EVENTS = ["approval.required", "approval.decided", "run.finished", "run.failed"] as const;

/** One webhook event name. */
export const WebhookEvent = z.enum(WEBHOOK_EVENTS);
/** One webhook event name. */
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/**
 * The events stored on an endpoint (a JSON array of names); names no longer known are
 * dropped, and a value that does not parse reads as no event.
 */
export function storedEvents(json: string): WebhookEvent[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? WEBHOOK_EVENTS.filter((e) => parsed.includes(e)) : [];
  } catch {
    return [];
  }
}
