/**
 * The in-process doorbell of the webhook sender: a new delivery (an event recorded or a
 * redelivery asked for) rings it so that a sender in this process claims it at once instead
 * of at its next poll. Kept on globalThis so that Next.js's module copies share it. Senders
 * in other processes find the delivery at their next poll (docs/webhooks.md "Retries").
 */

const g = globalThis as { __phylacteryWebhookWake?: Set<() => void> };
g.__phylacteryWebhookWake ??= new Set();
const listeners = g.__phylacteryWebhookWake;

/** Rings every sender of this process. */
export function wakeWebhookSender(): void {
  for (const l of listeners) l();
}

/**
 * Calls `listener` whenever a delivery is added in this process.
 * @returns the function that stops it.
 */
export function onWebhookWake(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
