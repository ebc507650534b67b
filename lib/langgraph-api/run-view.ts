import { type PlatformRunStatus, platformRunStatus } from "./status";

/** True while a run has not ended (queued or executing). */
export function isRunActive(status: string): boolean {
  return status === "queued" || status === "running";
}

/** The LangGraph Platform's Run object, plus our exact status. */
export interface PlatformRun {
  run_id: string;
  thread_id: string;
  assistant_id: string;
  created_at: string;
  updated_at: string;
  status: PlatformRunStatus;
  metadata: Record<string, unknown>;
  multitask_strategy: "reject";
  kwargs: Record<string, unknown>;
  /** Phylactery's own status (lib/run-status.ts): e.g. `incomplete` where the Platform says `error`. */
  phylactery_status: string;
  /** The run's error message when it failed. */
  error: string | null;
}

function jsonObject(text: string | null | undefined): Record<string, unknown> {
  try {
    const v = JSON.parse(text ?? "{}") as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Maps a Run row (with its thread's flow id) to the Platform's Run object. */
export function platformRun(run: { id: string; threadId: string; status: string; startedAt: Date; endedAt: Date | null; metadata: string; error: string | null }, assistantId: string): PlatformRun {
  return {
    run_id: run.id,
    thread_id: run.threadId,
    assistant_id: assistantId,
    created_at: run.startedAt.toISOString(),
    updated_at: (run.endedAt ?? run.startedAt).toISOString(),
    status: platformRunStatus(run.status),
    metadata: jsonObject(run.metadata),
    multitask_strategy: "reject",
    kwargs: {},
    phylactery_status: run.status,
    error: run.error,
  };
}
