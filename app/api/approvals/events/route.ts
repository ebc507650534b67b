// GET /api/approvals/events - server-sent events: the user's pending approvals count on connect and after every approval change they may see.
import { approvalVisible, pendingCount } from "@/lib/approvals/inbox";
import type { InboxEvent } from "@/lib/approvals/inbox-item";
import { db } from "@/lib/db/client";
import { onApprovalAnywhere } from "@/lib/events/approval-fanout";
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
  const encoder = new TextEncoder();
  let stop = () => {};
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      const write = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          stop();
        }
      };
      const push = async (change: Omit<InboxEvent, "pending">) => {
        try {
          const event: InboxEvent = { pending: await pendingCount(db(), user.id), ...change };
          write(`event: approvals\ndata: ${JSON.stringify(event)}\n\n`);
        } catch (err) {
          log.error({ err }, "approvals events: count failed");
        }
      };
      const unsubscribe = onApprovalAnywhere((e) => {
        void approvalVisible(db(), user.id, e.approvalId)
          .then((visible) => (visible ? push({ approvalId: e.approvalId, type: e.type, status: e.status }) : undefined))
          .catch((err: unknown) => log.error({ err }, "approvals events: visibility check failed"));
      });
      const keepAlive = setInterval(() => write(": keep-alive\n\n"), KEEP_ALIVE_MS);
      stop = () => {
        if (closed) return;
        closed = true;
        clearInterval(keepAlive);
        unsubscribe();
        try {
          controller.close();
        } catch {
          // already closed by the runtime
        }
      };
      req.signal.addEventListener("abort", () => stop(), { once: true });
      if (req.signal.aborted) return stop();
      // Tell EventSource how long to wait before reconnecting, then the first count.
      write("retry: 3000\n\n");
      await push({});
    },
    cancel() {
      stop();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      // no-transform keeps compression (which buffers) away from the stream.
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
