// POST /api/threads/:threadId/stream - accept a run of the thread's graph (message, decision, continue) and follow it as UI message chunks.
// GET /api/threads/:threadId/stream - follow the thread's active run (or ?runId=) from its first event (or ?after=<seq>); 204 when none.
import { after } from "next/server";
import { approvalSecret } from "@/lib/approvals/secret";
import { db } from "@/lib/db/client";
import { can } from "@/lib/auth/roles";
import { followTarget } from "@/lib/runs/follow-target";
import { followThread } from "@/lib/runs/follow-thread";
import { runStreamResponse } from "@/lib/events/run-stream-response";
import { chunkForViewer } from "@/lib/events/viewer-chunk";
import { withUser } from "@/lib/http/with-user";
import { acceptRun } from "@/lib/runs/accept";
import { Body, FollowQuery, Params } from "./schema";

export const dynamic = "force-dynamic";

/**
 * Accepts a run (docs/architecture.md#runs-jobs-and-leases): every refusal (403, 404, 409,
 * 410, 422, 429) happens before the stream starts; the run is then a job a worker executes,
 * and this response follows its stored events, like any other follower. The browser going
 * away ends the follow, not the run. The route needs "see": what the input needs beyond it
 * (run, or decide, or being the thread's own user) depends on the input, and acceptRun checks
 * it on the access resolved here (lib/runs/run-checks.ts).
 */
export const POST = withUser({ params: Params, body: Body, need: { capability: "see", thread: "threadId" } }, async (req, { user, params, body, access }) => {
  // Checks, commit, dispatch and a late decision in one place; the role and the cursor come back with it.
  const accepted = await acceptRun({ db: db(), threadId: params.threadId, userId: user.id, access, input: body.input, defer: (work) => after(() => work().then(() => undefined)) });
  const viewer = { canDecide: accepted.role !== null && can(accepted.role, "decide") };
  const secret = viewer.canDecide ? approvalSecret() : undefined;
  const chunks = followThread(db(), params.threadId, { after: accepted.follow.after, runId: accepted.follow.runId, signal: req.signal, live: true });
  return runStreamResponse(chunks, {
    runId: accepted.runId,
    transform: (chunk) => chunkForViewer(db(), viewer, chunk, { secret }),
    headers: { "x-run-id": accepted.runId },
  });
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
export const GET = withUser({ params: Params, query: FollowQuery, need: { capability: "see", thread: "threadId" } }, async (req, { params, query, access: { role } }) => {
  const target = await followTarget(db(), params.threadId, query.runId);
  if (!target) return new Response(null, { status: 204 });
  const viewer = { canDecide: can(role, "decide") };
  const secret = viewer.canDecide ? approvalSecret() : undefined;
  const chunks = followThread(db(), params.threadId, { after: query.after ?? target.after, runId: target.runId, signal: req.signal, live: true });
  return runStreamResponse(chunks, {
    runId: target.runId,
    transform: (chunk) => chunkForViewer(db(), viewer, chunk, { secret }),
    headers: { "x-run-id": target.runId },
  });
});
