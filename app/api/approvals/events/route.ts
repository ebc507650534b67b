// GET /api/approvals/events - server-sent events: the user's pending approvals count on connect and after every approval change they may see.
import { approvalVisible, pendingCount } from "@/lib/approvals/inbox";
import type { InboxEvent } from "@/lib/approvals/inbox-item";
import { bindWorkspaceScope } from "@/lib/auth/workspace-scope";
import { db } from "@/lib/db/client";
import { onApprovalAnywhere } from "@/lib/events/approval-fanout";
import { sseResponse } from "@/lib/http/sse-response";
import { withUser } from "@/lib/http/with-user";
import { logger } from "@/lib/log";
import { KEEP_ALIVE_MS, Query } from "./schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const log = logger.child({ module: "approvals-events" });

/**
 * `event: approvals` with `data: {"pending": N}` on connect, then the same event with the
 * approval's id, change type and status on every change in a workspace of the user, made
 * on any server process on the database (lib/events/approval-fanout.ts); a `: keep-alive` comment every 15 s; the subscription ends when
 * the browser goes away (`req.signal`).
 */
export const GET = withUser({ query: Query }, async (req, { user }) => {
  return sseResponse({ signal: req.signal, keepAliveMs: KEEP_ALIVE_MS }, async (sink) => {
    const push = async (change: Omit<InboxEvent, "pending">) => {
      try {
        const event: InboxEvent = { pending: await pendingCount(db(), user.id), ...change };
        sink.event("approvals", event);
      } catch (err) {
        log.error({ err }, "approvals events: count failed");
      }
    };
    // The bus calls subscribers in the publisher's context: keep this stream's workspace scope.
    const unsubscribe = onApprovalAnywhere(
      bindWorkspaceScope((e) => {
        void approvalVisible(db(), user.id, e.approvalId)
          .then((visible) => (visible ? push({ approvalId: e.approvalId, type: e.type, status: e.status }) : undefined))
          .catch((err: unknown) => log.error({ err }, "approvals events: visibility check failed"));
      }),
    );
    // The first count, at once.
    await push({});
    return unsubscribe;
  });
});
