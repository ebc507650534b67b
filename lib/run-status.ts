/**
 * The status vocabulary of threads, runs, plans and steps, and the words people read for it,
 * in one place so the run view, the dashboard, the inbox and the API never disagree
 * (docs/runs.md "Status vocabulary"). A run whose goal was not fully met is never
 * `completed`: it is `incomplete` (it ran to its end, and its answer lists what was blocked,
 * rejected, failed or skipped, and why), `failed` (it stopped on an error) or `cancelled`.
 */

/** Statuses of a run, and of a thread (its last run's), in the order the dashboard lists them. */
export const RUN_STATUSES = ["running", "awaiting_approval", "awaiting_input", "completed", "incomplete", "failed", "cancelled"] as const;
/** A run's status. */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** Statuses a thread can have: a run's, or `idle` before its first run. */
export const THREAD_STATUSES = ["idle", ...RUN_STATUSES] as const;
/** A thread's status. */
export type ThreadStatusName = (typeof THREAD_STATUSES)[number];

/** Statuses after which nothing more happens until someone sends a new message. */
export const FINISHED_STATUSES: readonly string[] = ["completed", "incomplete", "failed", "cancelled"];

/**
 * A thread's status as people and API clients read it: `interrupted` for a thread left
 * `running` with no run holding its lease (recovery gave up on its run after its worker
 * stopped too often, or a server stopped it before leases existed: docs/durability.md
 * "Recovery"); the stored status otherwise. Such a thread runs nothing until a person presses
 * Continue, which the stored `running` lets resume from the last checkpoint.
 * @param thread the Thread row's `status` and `leaseRunId` (null when no run owns it).
 */
export function threadStatusShown(thread: { status: string; leaseRunId: string | null }): string {
  return thread.status === "running" && thread.leaseRunId === null ? "interrupted" : thread.status;
}

/** People's words for thread and run statuses (and the run view's own `interrupted`, `ready`). */
export const STATUS_LABEL: Readonly<Record<string, string>> = {
  idle: "Not started",
  queued: "Waiting for a worker",
  running: "Running",
  awaiting_approval: "Awaiting approval",
  awaiting_input: "Awaiting your answer",
  completed: "Completed",
  incomplete: "Incomplete",
  failed: "Failed",
  cancelled: "Cancelled",
  interrupted: "Interrupted",
  ready: "Ready to continue",
};

/** What each finished status means, for tooltips and the API reference. */
export const STATUS_MEANING: Readonly<Record<string, string>> = {
  completed: "Every step was done.",
  incomplete: "The run finished, but some actions were blocked, rejected, failed or skipped; its answer says which and why.",
  failed: "The run stopped on an error before it could finish.",
  cancelled: "An approver dismissed an action, so the run stopped.",
};

/** People's words for step statuses. */
export const STEP_STATUS_LABEL: Readonly<Record<string, string>> = {
  pending: "Pending",
  in_progress: "In progress",
  completed: "Done",
  failed: "Failed",
  skipped: "Skipped",
  blocked: "Blocked",
  rejected: "Rejected",
};

/** The label of a status, or the status itself with spaces when it has none. */
export function statusLabel(status: string): string {
  return STATUS_LABEL[status] ?? STEP_STATUS_LABEL[status] ?? status.replaceAll("_", " ");
}
