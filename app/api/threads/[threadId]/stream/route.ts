// POST /api/threads/:threadId/stream - run the thread's graph on a message or an approval decision; streams UI message chunks.
// GET /api/threads/:threadId/stream - follow the thread's active run (or ?runId=) from its first event (or ?after=<seq>); 204 when none.
import { createUIMessageStream, createUIMessageStreamResponse } from "ai";
import { after } from "next/server";
import { approvalSecret } from "@/lib/approvals/secret";
import { db } from "@/lib/db/client";
import { can, threadAccess } from "@/lib/db/workspaces";
import { tellExpiredRuns } from "@/lib/engine/expiry-sweeper";
import { prepareRun } from "@/lib/engine/run-thread";
import { isAppError } from "@/lib/errors";
import { followTarget } from "@/lib/events/follow-target";
import { followThread } from "@/lib/events/follow-thread";
import { runStreamResponse } from "@/lib/events/run-stream-response";
import { chunkForViewer } from "@/lib/events/viewer-chunk";
import type { RunUIMessage } from "@/lib/engine/ui-parts";
import { withUser } from "@/lib/http/with-user";
import { Body, FollowQuery, Params } from "./schema";

export const dynamic = "force-dynamic";

export const POST = withUser({ params: Params, body: Body }, async (_req, { user, params, body }) => {
  // Every refusal (403, 404, 409, 410, 422) happens here, before the stream starts.
  const run = await prepareRun({ db: db(), threadId: params.threadId, userId: user.id, input: body.input }).catch((err: unknown) => {
    // A decision on an expired challenge: answer 410 now, and tell the run right after.
    if (isAppError(err) && err.reason === "approval_expired") after(() => tellExpiredRuns(db()).then(() => undefined));
    throw err;
  });
  const stream = createUIMessageStream<RunUIMessage>({
    async execute({ writer }) {
      writer.write({ type: "start", messageId: `run-${run.runId}` });
      for await (const chunk of run.stream()) {
        if (chunk.type === "text") {
          writer.write({ type: "text-start", id: chunk.id });
          writer.write({ type: "text-delta", id: chunk.id, delta: chunk.text });
          writer.write({ type: "text-end", id: chunk.id });
        } else {
          writer.write(chunk);
        }
      }
      writer.write({ type: "finish" });
    },
    onError: (err) => (err instanceof Error ? err.message : "The run failed; see the server log."),
  });
  return createUIMessageStreamResponse({ stream });
});

/**
 * Follows a run of the thread as an AI SDK UI message stream (the resume convention of
 * `useChat({ resume: true })`: `DefaultChatTransport.reconnectToStream` GETs this URL and
 * takes 204 as "nothing to resume"). Any member who may view the thread may follow; approval
 * cards carry their one-time token only for those who may decide (as on page load). The
 * stream replays the run's stored events, then follows new ones wherever the run executes,
 * and ends with the run's final run part (or when the browser goes away). The run followed
 * is named in the `x-run-id` header.
 */
export const GET = withUser({ params: Params, query: FollowQuery }, async (req, { user, params, query }) => {
  const { role } = await threadAccess(db(), user.id, params.threadId);
  const target = await followTarget(db(), params.threadId, query.runId);
  if (!target) return new Response(null, { status: 204 });
  const viewer = { canDecide: can(role, "decide") };
  const secret = viewer.canDecide ? approvalSecret() : undefined;
  const chunks = followThread(db(), params.threadId, { after: query.after ?? target.after, runId: target.runId, signal: req.signal });
  return runStreamResponse(chunks, {
    runId: target.runId,
    transform: (chunk) => chunkForViewer(db(), viewer, chunk, { secret }),
    headers: { "x-run-id": target.runId },
  });
});
