import "server-only";
import { approvalSecret } from "../approvals/secret";
import { challengeToken } from "../approvals/service";
import type { Db } from "../db/client";
import { can, type Role } from "../auth/roles";
import type { TicketLookup } from "./interrupts";

/**
 * What a caller may know of a thread's approvals (docs/langgraph-api.md#interrupts): each
 * approval's expiry, and its one-time token (recomputed, never stored: lib/approvals/service.ts
 * challengeToken) only when the caller's role may decide (owner, approver) and the approval is
 * still pending and unexpired, as the approval inbox does. A viewer never gets a token.
 * @param ids approval ids named by the thread's interrupts; rows of other threads are ignored.
 * @param now ms since the epoch.
 */
export async function approvalTickets(db: Db, threadId: string, role: Role, ids: readonly string[], now = Date.now(), secret?: string): Promise<TicketLookup> {
  if (ids.length === 0) return () => undefined;
  const rows = await db.approval.findMany({ where: { id: { in: [...ids] }, threadId } });
  const decide = can(role, "decide");
  const byId = new Map(
    rows.map((a) => {
      const live = decide && a.status === "pending" && a.expiresAt.getTime() > now;
      return [a.id, { expires_at: a.expiresAt.toISOString(), ...(live ? { token: challengeToken(secret ?? approvalSecret(), a) } : {}) }] as const;
    }),
  );
  return (id) => byId.get(id);
}
