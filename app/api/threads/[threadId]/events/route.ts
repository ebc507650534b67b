// GET /api/threads/:threadId/events - server-sent events: `run` with the run id whenever a new run starts on the thread, wherever it runs.
import { db } from "@/lib/db/client";
import { onThreadEvent } from "@/lib/events/thread-events";
import { sseResponse } from "@/lib/http/sse-response";
import { withUser } from "@/lib/http/with-user";
import { logger } from "@/lib/log";
import { KEEP_ALIVE_MS, Params, POLL_MS, Query } from "./schema";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

const log = logger.child({ module: "thread-events" });

/**
 * Tells a run view that a run it did not start is under way on its thread (an approval
 * decided in the inbox or another tab, a message from another device, on any server
 * instance), so it can follow it (`GET /api/threads/:id/stream?runId=`). Members who may
 * view the thread may listen. `event: run` with `data: {"runId": "…"}` once per new run
 * (runs that existed when the stream opened are not announced, except the latest when the
 * client names another one as the last it knows, `?after=<runId>`, or none, `?after=`), woken by the thread's
 * stored-event notifications (lib/events/thread-events.ts) and, as a safety net, a look at
 * the thread's latest run every 5 s; a `: keep-alive` comment every 15 s; it ends when the
 * browser goes away.
 */
export const GET = withUser({ params: Params, query: Query, need: { capability: "see", thread: "threadId" } }, async (req, { params, query }) => {
  const threadId = params.threadId;
  const latestRun = async () => (await db().run.findFirst({ where: { threadId }, orderBy: { startedAt: "desc" }, select: { id: true } }))?.id ?? null;
  const known = new Set<string>();
  const baseline = await latestRun();
  if (baseline) known.add(baseline);
  return sseResponse({ signal: req.signal, keepAliveMs: KEEP_ALIVE_MS }, (sink) => {
    const announce = (runId: string | null) => {
      if (!runId || known.has(runId)) return;
      known.add(runId);
      sink.event("run", { runId });
    };
    const unlisten = onThreadEvent(threadId, (notice) => announce(notice.runId));
    // A client back from a hidden spell missed the runs started meanwhile: the latest is announced now.
    if (query.after !== undefined && baseline && baseline !== query.after) sink.event("run", { runId: baseline });
    const poll = setInterval(() => {
      latestRun()
        .then(announce)
        .catch((err: unknown) => log.error({ err, threadId }, "thread events: poll failed"));
    }, POLL_MS);
    return () => {
      clearInterval(poll);
      unlisten();
    };
  });
});
