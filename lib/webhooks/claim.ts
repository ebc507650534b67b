import "server-only";
import type { Db } from "../db/client";

/**
 * Claims due webhook deliveries for one sender (docs/webhooks.md "Retries"; STYLE.md 16:
 * concurrency lives in the database). A delivery is due when it is pending, its
 * `nextAttemptAt` has come, its endpoint is enabled and nobody holds it (no lease, or a lease
 * past its `lockedUntil`: its sender died). Each is taken with one conditional update, so of
 * two senders (two instances, or two loops) exactly one gets it.
 */

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  payload: string;
  attempts: number;
  endpoint: { id: string; url: string; secret: string };
}

/**
 * Claims at most `limit` due deliveries, oldest due first.
 * @param sender the claiming sender's id (stored in `lockedBy`).
 * @param leaseMs how long the claim holds without being finished, ms (longer than a send).
 * @returns the deliveries this sender now holds.
 */
export async function claimDueDeliveries(db: Db, sender: string, limit: number, leaseMs: number, nowMs: number = Date.now()): Promise<ClaimedDelivery[]> {
  if (limit <= 0) return [];
  const now = new Date(nowMs);
  const free = [{ lockedUntil: null }, { lockedUntil: { lt: now } }];
  const due = await db.webhookDelivery.findMany({
    where: { status: "pending", nextAttemptAt: { lte: now }, OR: free, endpoint: { enabled: true } },
    orderBy: { nextAttemptAt: "asc" },
    take: limit,
    select: { id: true, payload: true, attempts: true, endpoint: { select: { id: true, url: true, secret: true } } },
  });
  const claimed: ClaimedDelivery[] = [];
  for (const d of due) {
    const won = await db.webhookDelivery.updateMany({ where: { id: d.id, status: "pending", OR: free }, data: { lockedBy: sender, lockedUntil: new Date(nowMs + leaseMs) } });
    if (won.count === 1) claimed.push(d);
  }
  return claimed;
}
