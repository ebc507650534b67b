import "server-only";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Db } from "../db/client";
import { env } from "../env";
import { logger } from "../log";
import { type GuardedFetch, guardedFetch } from "../net/guarded-fetch";
import { claimDueDeliveries } from "./claim";
import { sendClaimed } from "./send-one";
import { onWebhookWake } from "./wake";

const log = logger.child({ module: "webhooks" });

/**
 * The webhook sender (docs/webhooks.md "Retries"): a loop that claims due deliveries
 * (lib/webhooks/claim.ts), sends up to `concurrency` of them at once (lib/webhooks/send-one.ts),
 * and otherwise waits for a new delivery in this process (lib/webhooks/wake.ts) or for its
 * next poll. It runs in the processes that run background work (RUN_WORKERS > 0): events are
 * recorded wherever they happen, and sent by those.
 */

/** Tuning of a sender; every field has a default. */
export interface WebhookSenderOptions {
  /** Poll period when nothing wakes it, ms (default 2000). */
  pollMs?: number;
  /** Base delay of retries, ms (default WEBHOOK_RETRY_BASE_MS). */
  retryBaseMs?: number;
  /** Per-attempt timeout, ms (default 10 000). */
  timeoutMs?: number;
  /** How long a claim lasts, ms (default 60 000; longer than any attempt). */
  leaseMs?: number;
  /** Deliveries in flight at once (default 8). */
  concurrency?: number;
  /** The HTTP client (default the guarded one). */
  fetch?: GuardedFetch;
  /** The sender's id in `lockedBy` (default host, pid and a random suffix). */
  id?: string;
}

/** A running sender. */
export interface WebhookSender {
  id: string;
  /** Stops claiming, and resolves once the deliveries in flight are recorded. */
  stop(): Promise<void>;
}

/** Starts a sender loop (tests may start several on one database). */
export function startWebhookSender(db: Db, options: WebhookSenderOptions = {}): WebhookSender {
  const id = options.id ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const o = {
    pollMs: options.pollMs ?? 2_000,
    timeoutMs: options.timeoutMs ?? 10_000,
    leaseMs: options.leaseMs ?? 60_000,
    concurrency: options.concurrency ?? 8,
    retryBaseMs: options.retryBaseMs ?? env().WEBHOOK_RETRY_BASE_MS,
    fetch: options.fetch ?? guardedFetch,
  };
  const inflight = new Set<Promise<unknown>>();
  let stopped = false;
  let ring: (() => void) | null = null;
  let rung = false;
  const wake = () => {
    rung = true;
    ring?.();
  };
  const offWake = onWebhookWake(wake);
  const nap = () =>
    new Promise<void>((resolve) => {
      if (rung || stopped) return resolve();
      const timer = setTimeout(done, o.pollMs);
      function done() {
        clearTimeout(timer);
        ring = null;
        resolve();
      }
      ring = done;
    });

  const loop = (async () => {
    while (!stopped) {
      rung = false;
      let claimedAll = false;
      try {
        const room = o.concurrency - inflight.size;
        const claimed = await claimDueDeliveries(db, id, room, o.leaseMs);
        claimedAll = room > 0 && claimed.length === room;
        for (const d of claimed) {
          const p: Promise<unknown> = sendClaimed(db, d, { fetch: o.fetch, sender: id, timeoutMs: o.timeoutMs, retryBaseMs: o.retryBaseMs })
            .catch((err: unknown) => log.error({ err, deliveryId: d.id }, "webhooks: recording an attempt failed"))
            .finally(() => {
              inflight.delete(p);
              wake();
            });
          inflight.add(p);
        }
      } catch (err) {
        log.error({ err }, "webhooks: claiming deliveries failed");
      }
      if (!claimedAll) await nap();
    }
  })();

  return {
    id,
    async stop() {
      stopped = true;
      offWake();
      ring?.();
      await loop;
      await Promise.all([...inflight]);
    },
  };
}

const g = globalThis as { __phylacteryWebhookSender?: WebhookSender };

/** The process's one sender (started by lib/runs/background.ts), started on first call. */
export function ensureWebhookSender(db: Db): WebhookSender {
  g.__phylacteryWebhookSender ??= startWebhookSender(db);
  return g.__phylacteryWebhookSender;
}
