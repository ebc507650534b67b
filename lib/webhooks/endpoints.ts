import "server-only";
import type { Db } from "../db/client";
import { type Caller, callerId } from "../auth/membership";
import { AppError } from "../errors";
import { storedEvents, type WebhookEvent } from "./events";
import type { WebhookInput, WebhookPatch } from "./input";
import { requireWebhookOwner } from "./owner";
import { sealWebhookSecret } from "./secret-box";
import { newWebhookSecret } from "./signature";
import { checkWebhookUrl } from "./url-check";

/**
 * A workspace's webhooks (docs/webhooks.md "Managing webhooks"): owners list, add, change and
 * delete them; the signing secret is shown once, when the webhook is added, and is sealed at
 * rest (lib/webhooks/secret-box.ts). Everyone else: 403 (members), 404 (non-members).
 */

/** A webhook as the API and Settings show it: never its secret. */
export interface WebhookView {
  id: string;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  /** Deliveries waiting for an attempt or a retry, and failed ones (retries exhausted). */
  pending: number;
  failed: number;
}

type Row = { id: string; url: string; events: string; enabled: boolean; createdAt: Date; updatedAt: Date };

async function viewsOf(db: Db, rows: Row[]): Promise<WebhookView[]> {
  const counts =
    rows.length === 0
      ? []
      : await db.webhookDelivery.groupBy({ by: ["endpointId", "status"], where: { endpointId: { in: rows.map((r) => r.id) }, status: { in: ["pending", "failed"] } }, _count: { _all: true } });
  const count = (id: string, status: string) => counts.find((c) => c.endpointId === id && c.status === status)?._count._all ?? 0;
  return rows.map((r) => ({
    id: r.id,
    url: r.url,
    events: storedEvents(r.events),
    enabled: r.enabled,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    pending: count(r.id, "pending"),
    failed: count(r.id, "failed"),
  }));
}

const select = { id: true, url: true, events: true, enabled: true, createdAt: true, updatedAt: true } as const;

/**
 * The workspace's webhooks, oldest first.
 * @throws AppError as {@link requireWebhookOwner}.
 */
export async function listWebhooks(db: Db, userId: Caller, workspaceId: string): Promise<WebhookView[]> {
  await requireWebhookOwner(db, userId, workspaceId);
  return viewsOf(db, await db.webhookEndpoint.findMany({ where: { workspaceId }, orderBy: { createdAt: "asc" }, select }));
}

/**
 * Adds a webhook, enabled, with a new signing secret.
 * @returns the webhook and its secret (`whsec_...`), which is never shown again.
 * @throws AppError as {@link requireWebhookOwner}; unprocessable ("webhook_url_not_allowed")
 *   for a private or loopback address the operator did not open.
 */
export async function addWebhook(db: Db, userId: Caller, workspaceId: string, input: WebhookInput): Promise<{ webhook: WebhookView; secret: string }> {
  await requireWebhookOwner(db, userId, workspaceId);
  checkWebhookUrl(input.url);
  const secret = newWebhookSecret();
  const row = await db.webhookEndpoint.create({
    data: { workspaceId, url: input.url, events: JSON.stringify(input.events), secret: sealWebhookSecret(secret), createdById: callerId(userId) },
    select,
  });
  const [webhook] = await viewsOf(db, [row]);
  if (!webhook) throw new Error("unreachable: a created webhook has a view");
  return { webhook, secret };
}

/**
 * The workspace's webhook `webhookId`.
 * @throws AppError not_found ("webhook_not_found") when the workspace has no such webhook.
 */
export async function webhookOf(db: Db, workspaceId: string, webhookId: string): Promise<Row & { workspaceId: string }> {
  const row = await db.webhookEndpoint.findFirst({ where: { id: webhookId, workspaceId }, select: { ...select, workspaceId: true } });
  if (!row) throw new AppError("not_found", "webhook_not_found", `No webhook ${webhookId} in this workspace.`);
  return row;
}

/**
 * Changes a webhook's URL, events or enabled flag. A disabled webhook gets no new deliveries
 * and its pending ones wait until it is enabled again.
 * @throws AppError as {@link requireWebhookOwner}, {@link webhookOf}; unprocessable for a URL as {@link addWebhook}.
 */
export async function updateWebhook(db: Db, userId: Caller, workspaceId: string, webhookId: string, patch: WebhookPatch): Promise<WebhookView> {
  await requireWebhookOwner(db, userId, workspaceId);
  await webhookOf(db, workspaceId, webhookId);
  if (patch.url !== undefined) checkWebhookUrl(patch.url);
  const row = await db.webhookEndpoint.update({
    where: { id: webhookId },
    data: {
      ...(patch.url !== undefined ? { url: patch.url } : {}),
      ...(patch.events ? { events: JSON.stringify(patch.events) } : {}),
      ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
    },
    select,
  });
  const [view] = await viewsOf(db, [row]);
  if (!view) throw new Error("unreachable: an updated webhook has a view");
  return view;
}

/**
 * Deletes a webhook and its delivery log (pending deliveries are never sent).
 * @throws AppError as {@link requireWebhookOwner}, {@link webhookOf}.
 */
export async function deleteWebhook(db: Db, userId: Caller, workspaceId: string, webhookId: string): Promise<void> {
  await requireWebhookOwner(db, userId, workspaceId);
  await webhookOf(db, workspaceId, webhookId);
  await db.webhookEndpoint.delete({ where: { id: webhookId } });
}
