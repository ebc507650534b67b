import { z } from "zod";
import { WebhookEvent } from "./events";

/**
 * What an owner sends to add or change a webhook (docs/webhooks.md "Managing webhooks"). The
 * URL's shape is checked here; whether its address may be reached is the operator's call,
 * checked when it is saved (lib/webhooks/url-check.ts) and again on every send.
 */

function hasCredentials(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.username !== "" || u.password !== "";
  } catch {
    return false;
  }
}

/** An http(s) URL of at most 2000 chars, without a user name or password. */
export const WebhookUrl = z
  .string()
  .trim()
  .max(2000, "at most 2000 characters")
  .pipe(z.url({ protocol: /^https?$/, error: "an http(s) URL that receives the webhook, e.g. https://hooks.example.com/phylactery" }))
  .refine((u) => !hasCredentials(u), "no user name or password in the URL: check the signature instead (docs/webhooks.md)");

/** The events to send: at least one, each named once. */
export const WebhookEvents = z
  .array(WebhookEvent)
  .min(1, "choose at least one event")
  .max(4)
  .refine((e) => new Set(e).size === e.length, "name each event once");

/** POST body: the receiving URL and the events it gets. */
export const WebhookInput = z.object({ url: WebhookUrl, events: WebhookEvents }).strict();
/** POST body. */
export type WebhookInput = z.infer<typeof WebhookInput>;

/** PATCH body: any of url, events, enabled (at least one). */
export const WebhookPatch = z
  .object({ url: WebhookUrl.optional(), events: WebhookEvents.optional(), enabled: z.boolean().optional() })
  .strict()
  .refine((p) => p.url !== undefined || p.events !== undefined || p.enabled !== undefined, "send url, events or enabled");
/** PATCH body. */
export type WebhookPatch = z.infer<typeof WebhookPatch>;
