/**
 * Our thread and run statuses as the LangGraph Platform API names them
 * (docs/langgraph-api.md#statuses). Ours are richer (lib/run-status.ts); the Platform has four
 * thread statuses and six run statuses, and its clients (Agent Inbox, useStream) key on them.
 */

/** A LangGraph Platform thread status. */
export type PlatformThreadStatus = "idle" | "busy" | "interrupted" | "error";

/** A LangGraph Platform run status. */
export type PlatformRunStatus = "pending" | "running" | "error" | "success" | "timeout" | "interrupted";

/** The thread statuses, for zod enums and docs. */
export const PLATFORM_THREAD_STATUSES = ["idle", "busy", "interrupted", "error"] as const satisfies readonly PlatformThreadStatus[];

/** Our thread statuses that wait on a person: an approval, an answer, or a choice on a call whose outcome is unknown. */
export const WAITING_THREAD_STATUSES: readonly string[] = ["awaiting_approval", "awaiting_input"];

/**
 * A thread's Platform status (docs/langgraph-api.md#statuses): `busy` while a run holds its
 * lease (queued or executing); `interrupted` while it waits on a person (awaiting approval,
 * awaiting input, which includes a call whose outcome is unknown); `error` when its last run
 * failed, or stopped with nobody running it (it reads `running` with no lease: recovery gave
 * up, and a person may Continue); `idle` otherwise (never run, completed, incomplete,
 * cancelled).
 * @param thread our Thread row's `status` and `leaseRunId` (null when no run owns it).
 */
export function platformThreadStatus(thread: { status: string; leaseRunId: string | null }): PlatformThreadStatus {
  if (thread.leaseRunId !== null) return "busy";
  if (WAITING_THREAD_STATUSES.includes(thread.status)) return "interrupted";
  // `running` with no lease: its run stopped and only a person's Continue goes on
  // (lib/run-status.ts threadStatusShown), as an interrupted run reads `error`.
  if (thread.status === "failed" || thread.status === "running") return "error";
  return "idle";
}

/**
 * A run's Platform status (docs/langgraph-api.md#statuses): queued -> pending; running ->
 * running; awaiting approval or input -> interrupted (it stopped at an interrupt and resumes
 * with a new run); completed -> success; incomplete -> error: a run whose steps were blocked,
 * rejected, failed or skipped did not do its task, and a run's report never calls that done
 * (docs/runs.md), so only a run that did every step is a success; failed -> error; cancelled
 * (an approver dismissed a call, or a client cancelled it) -> interrupted, as the Platform
 * names a run stopped before its end; interrupted (its worker stopped too often and a person
 * must continue it) -> error. Unknown statuses read as error. A Run object also carries
 * `phylactery_status`, our exact status.
 * @param status our Run row's status (lib/run-status.ts, plus `queued` and `interrupted`).
 */
export function platformRunStatus(status: string): PlatformRunStatus {
  switch (status) {
    case "queued":
      return "pending";
    case "running":
      return "running";
    case "awaiting_approval":
    case "awaiting_input":
    case "cancelled":
      return "interrupted";
    case "completed":
      return "success";
    default:
      return "error";
  }
}
