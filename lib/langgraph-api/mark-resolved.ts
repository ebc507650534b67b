import "server-only";
import type { Db } from "../db/client";
import { threadAccess } from "../auth/membership";
import { AppError } from "../errors";
import type { SessionUser } from "../http/with-user";
import { waitingOf } from "./accept-run";
import { acceptRun, waitForRun } from "./runs-api";
import { stateViewFor } from "./state-view";
import { threadStateReader } from "./thread-state-reader";

/** What `threads.updateState` answers: the config of the checkpoint the thread is at after it. */
export interface UpdatedState {
  configurable: { thread_id: string; checkpoint_ns: string; checkpoint_id: string | null };
}

/**
 * Agent Inbox's "Mark as resolved" (`threads.updateState(id, { values: null, asNode: "__end__" })`,
 * docs/langgraph-api.md#agent-inbox): the thread stops waiting without running anything. It is
 * the `ignore` decision on the approval the thread waits on, taken on the same path as any
 * decision (lib/langgraph-api/resume.ts, then lib/runs/run-decision.ts): the caller must be an
 * owner or approver, every other waiting approval of the run is dismissed with it, the run
 * ends `cancelled`, and the audit says who did it. Waits (at most `signal`'s life) for that
 * short run to end.
 * @throws AppError not_found (a thread the caller may not see); conflict
 *   (`nothing_to_resolve`) when no approval waits: a question wants its answer, an unknown
 *   outcome its choice; forbidden for a viewer; as {@link acceptRun} otherwise.
 */
export async function markResolved(db: Db, user: SessionUser, threadId: string, signal: AbortSignal): Promise<UpdatedState> {
  const { thread, role } = await threadAccess(db, user.id, threadId);
  const waiting = await waitingOf(db, threadId, { userId: user.id, role, workspaceId: thread.flow.workspaceId, thread });
  const approval = waiting.approvals[0];
  if (!approval) {
    const what = waiting.question ? "a question: answer it with a response" : waiting.outcomes.length ? "a call whose outcome is unknown: accept (run it again) or ignore (skip it)" : "nothing";
    throw new AppError("conflict", "nothing_to_resolve", `Only a thread waiting on an approval can be marked as resolved; this one waits on ${what}.`);
  }
  const accepted = await acceptRun(db, user, threadId, { assistant_id: thread.flowId, command: { resume: { [approval.id]: { type: "ignore", args: null } } } });
  await waitForRun(db, accepted.runId, signal);
  const reader = threadStateReader(db, thread, stateViewFor(db, threadId, role));
  const latest = await reader.latest();
  const checkpointId = (latest.config?.configurable?.checkpoint_id as string | undefined) ?? null;
  return { configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId } };
}
