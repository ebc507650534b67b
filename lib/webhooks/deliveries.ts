import "server-only";
import { randomBytes } from "node:crypto";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import type { Caller } from "../auth/membership";
import { webhookOf } from "./endpoints";
import { requireWebhookOwner } from "./owner";
import { wakeWebhookSender } from "./wake";

/**
 * A webhook's delivery log and redelivery (docs/webhooks.md "The delivery log",
 * "Redelivery"). Owners only, as the webhooks themselves.
 */

/** The most deliveries one listing returns. */
export const DELIVERY_PAGE = 50;

/** One delivery as the log shows it. */
export interface DeliveryView {
  id: string;
  event: string;
  /** pending | succeeded | failed */
  status: string;
  attempts: number;
  /** HTTP status of the last attempt; null when no answer came. */
  lastStatus: number | null;
  /** Why the last attempt failed, in a few words; null after a success. */
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  /** The delivery this one repeats, for a redelivery. */
  redeliveryOf: string | null;
  createdAt: string;
  /** The body as sent (parsed JSON). */
  payload: unknown;
}

type Row = {
  id: string;
  event: string;
  status: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  lastAttemptAt: Date | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  redeliveryOf: string | null;
  createdAt: Date;
  payload: string;
};

const iso = (d: Date | null) => d?.toISOString() ?? null;

function parsed(payload: string): unknown {
  try {
    return JSON.parse(payload);
  } catch {
    return payload;
  }
}

function view(r: Row): DeliveryView {
  return {
    id: r.id,
    event: r.event,
    status: r.status,
    attempts: r.attempts,
    lastStatus: r.lastStatus,
    lastError: r.lastError,
    lastAttemptAt: iso(r.lastAttemptAt),
    nextAttemptAt: r.status === "pending" ? iso(r.nextAttemptAt) : null,
    deliveredAt: iso(r.deliveredAt),
    redeliveryOf: r.redeliveryOf,
    createdAt: r.createdAt.toISOString(),
    payload: parsed(r.payload),
  };
}

/**
 * A webhook's deliveries, newest first, at most {@link DELIVERY_PAGE}.
 * @throws AppError not_found (non-member, or no such webhook in the workspace), forbidden (not an owner).
 */
export async function listDeliveries(db: Db, userId: Caller, workspaceId: string, webhookId: string): Promise<DeliveryView[]> {
  await requireWebhookOwner(db, userId, workspaceId);
  await webhookOf(db, workspaceId, webhookId);
  const rows = await db.webhookDelivery.findMany({ where: { endpointId: webhookId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take: DELIVERY_PAGE });
  return rows.map(view);
}

/**
 * Sends a delivery again: a new delivery of the same body (its own webhook-id, timestamp and
 * signature), due now, with `redeliveryOf` set to the one it repeats. Any delivery may be
 * repeated, whatever its status.
 * @throws AppError as {@link listDeliveries}; not_found ("delivery_not_found") when the
 *   webhook has no such delivery; conflict ("webhook_disabled") when the webhook is disabled.
 */
export async function redeliver(db: Db, userId: Caller, workspaceId: string, webhookId: string, deliveryId: string): Promise<DeliveryView> {
  await requireWebhookOwner(db, userId, workspaceId);
  const hook = await webhookOf(db, workspaceId, webhookId);
  const original = await db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: webhookId }, select: { id: true, event: true, payload: true } });
  if (!original) throw new AppError("not_found", "delivery_not_found", `No delivery ${deliveryId} of this webhook.`);
  if (!hook.enabled) throw new AppError("conflict", "webhook_disabled", "This webhook is disabled: enable it first, then redeliver.");
  const row = await db.webhookDelivery.create({
    data: {
      endpointId: webhookId,
      event: original.event,
      eventKey: `redelivery:${randomBytes(12).toString("base64url")}`,
      payload: original.payload,
      redeliveryOf: original.id,
      nextAttemptAt: new Date(),
    },
  });
  wakeWebhookSender();
  return view(row);
}
