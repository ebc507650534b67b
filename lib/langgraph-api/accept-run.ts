import "server-only";
import type { Db } from "../db/client";
import { createThread } from "../db/threads";
import { type Caller, type ResolvedAccess, threadAccess } from "../auth/membership";
import { approvalSecret } from "../engine/engine-deps";
import { readRunState } from "../runs/read-state";
import { pendingQuestion } from "../runs/run-input";
import { waitingCalls } from "../runs/run-decision";
import { waitingOutcomes } from "../runs/run-outcome";
import type { RunInput } from "../runs/run-thread";
import { taskWithoutTypedTokens } from "../runs/typed-tokens";
import { env } from "../env";
import { AppError, isAppError } from "../errors";
import type { SessionUser } from "../http/with-user";
import { type AcceptedDispatchedRun, type AcceptRunOptions, acceptRun } from "../runs/accept";
import { ensureWorkspace } from "../tools/workspace";
import { inputMessage } from "./input-message";
import { resumeInput, type WaitingInterrupts } from "./resume";
import { resolveThread } from "./threads";
import type { RunBody } from "./run-body";

/** A thread id a client may choose (`threads.create({ threadId })`, `if_not_exists: "create"`). */
export const CLIENT_THREAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * What the thread's latest state waits on, by interrupt id, and the caller's role.
 * @param userId a user id, or the caller's access already resolved in this request (lib/auth/membership.ts `Caller`: no query).
 * @throws AppError not_found for a thread the user may not see.
 */
export async function waitingOf(db: Db, threadId: string, userId: Caller): Promise<WaitingInterrupts> {
  const { thread, role } = await threadAccess(db, userId, threadId);
  // Read-only: the version's cached graph, no models or tools (lib/runs/read-state.ts).
  const { snapshot } = await readRunState(db, thread);
  const question = pendingQuestion(snapshot);
  return {
    approvals: waitingCalls(snapshot).map((w) => ({ id: w.id, approvalId: w.request.approval_id })),
    question: question ? { id: question.id } : null,
    outcomes: waitingOutcomes(snapshot).map((o) => ({ id: o.id, toolCallId: o.request.toolCallId })),
    role,
  };
}

/** The metadata an API thread hands to its Thread: what the client stored, without the flow ids (they always read as the thread's flow). */
function boundMetadata(text: string): string {
  const { graph_id: _g, assistant_id: _a, ...kept } = JSON.parse(text || "{}") as Record<string, unknown>;
  return JSON.stringify(kept);
}

/**
 * The Thread a run goes on: the thread itself (its flow must be the run's assistant), or, for
 * a thread made through the API that has not run yet, a new Thread with the same id and
 * metadata on the assistant's flow, named after the task (the ApiThread row is then gone).
 * An API thread made for a graph (`metadata.graph_id`) runs only that flow. With
 * `if_not_exists: "create"` an unknown id becomes a new thread too. Who may reach what is
 * lib/langgraph-api/threads.ts resolveThread's rule (membership, the key's workspace scope).
 * @returns the caller's access to an existing Thread (its row and their role), so the rest of
 *   the request resolves neither again; undefined for a thread made here.
 * @throws AppError not_found (no such thread for this caller; no such flow), conflict
 *   ("assistant_mismatch"), unprocessable (the first run needs a task), forbidden (viewer).
 */
async function threadForRun(db: Db, user: SessionUser, threadId: string, body: RunBody, task: string | null): Promise<ResolvedAccess | undefined> {
  let pending: { metadata: string } | null = null;
  try {
    const found = await resolveThread(db, user, threadId);
    if (found.kind === "thread") {
      if (found.thread.flowId !== body.assistant_id) {
        throw new AppError("conflict", "assistant_mismatch", `assistant_id: thread ${threadId} runs assistant ${found.thread.flowId}; start a new thread to run another.`);
      }
      return { userId: user.id, role: found.role, workspaceId: found.thread.flow.workspaceId, thread: found.thread };
    }
    const made = JSON.parse(found.row.metadata || "{}") as { graph_id?: unknown };
    if (typeof made.graph_id === "string" && made.graph_id !== body.assistant_id) {
      throw new AppError("conflict", "assistant_mismatch", `assistant_id: thread ${threadId} was made for assistant ${made.graph_id}; run that one, or make a new thread.`);
    }
    pending = found.row;
  } catch (err) {
    const unknown = isAppError(err) && err.reason === "thread_not_found";
    const create = body.if_not_exists === "create" && CLIENT_THREAD_ID.test(threadId);
    if (!unknown || !create) throw err;
    // Only an id nobody uses may be made on the fly: a stranger's thread stays a 404.
    const taken = (await db.thread.count({ where: { id: threadId } })) + (await db.apiThread.count({ where: { id: threadId } }));
    if (taken > 0) throw err;
  }
  if (task === null)
    throw new AppError("unprocessable", "message_required", 'input.messages: the first run of a thread needs a task, e.g. { messages: [{ role: "user", content: "Summarize notes.md" }] }.');
  // No live approval token typed into the task is stored with the thread (docs/security.md "Secrets at rest").
  const safeTask = await taskWithoutTypedTokens(db, approvalSecret(), user.id, task);
  await createThread(db, user.id, body.assistant_id, safeTask, undefined, { id: threadId, metadata: boundMetadata(pending?.metadata ?? "{}") });
  // Killed right here, both rows stay: the Thread wins everywhere (resolveThread, search).
  if (pending) await db.apiThread.deleteMany({ where: { id: threadId } });
  await ensureWorkspace(env().WORKSPACES_DIR, threadId);
  return undefined;
}

/**
 * Accepts a LangGraph API run on a thread (docs/langgraph-api.md#runs): binds an API thread to
 * its flow on its first run, turns `input` or `command.resume` into the run view's input
 * (lib/langgraph-api/resume.ts) and hands it to the run service's one accept path
 * (lib/runs/accept.ts acceptRun: every check, the lease, the job, the run's metadata, the
 * dispatch, a late decision). No input and no resume continues a run the server stopped.
 * @param defer runs work that must outlive the response (a route's `after`).
 * @returns the accepted run, with the caller's access to the thread when it existed before
 *   (what the answer reuses instead of resolving the thread again).
 * @throws AppError as threadForRun, resumeInput and enqueueRun (409 run_in_progress while
 *   another run holds the thread: multitask_strategy reject).
 */
export async function acceptPlatformRun(db: Db, user: SessionUser, threadId: string, body: RunBody, defer?: AcceptRunOptions["defer"]): Promise<AcceptedDispatchedRun & { access?: ResolvedAccess }> {
  const userId = user.id;
  const resume = body.command?.resume;
  if (resume !== undefined && body.input) throw new AppError("unprocessable", "input_and_resume", "input: send either input (a new message) or command.resume (an answer), not both.");
  const task = resume === undefined ? inputMessage(body.input) : null;
  // The thread and the caller's role, resolved once: the resume and the run's checks reuse them.
  const access = await threadForRun(db, user, threadId, body, task);
  let input: RunInput;
  if (resume !== undefined) input = resumeInput(resume, await waitingOf(db, threadId, access ?? userId));
  else input = task !== null ? { kind: "message", text: task } : { kind: "continue" };
  const accepted = await acceptRun({ db, threadId, userId, ...(access ? { access } : {}), input, ...(body.metadata ? { metadata: body.metadata } : {}), ...(defer ? { defer } : {}) });
  return { ...accepted, ...(access ? { access } : {}) };
}
