import type { ApprovalDecision } from "@/components/run/approval-card";

/** Outcome of {@link postDecision}. */
export type DecisionOutcome =
  | { ok: true /** Status of the resumed run from its last `data-run` part, e.g. completed, cancelled. */; runStatus: string | null; error: string | null }
  | { ok: false /** HTTP status (403, 404, 409, 410, 422) or 0 for a network error. */; status: number; reason: string; message: string };

/** The body sent to `POST /api/threads/:threadId/stream` for a decision (docs/architecture.md#approvals). */
export function decisionInput(approval: { approvalId: string; token: string | null; argsHash: string }, d: ApprovalDecision) {
  const needsToken = d.decision === "approve" || d.decision === "edit";
  return {
    kind: "decision" as const,
    approvalId: approval.approvalId,
    decision: d.decision,
    argsHash: approval.argsHash,
    ...(needsToken && approval.token ? { token: approval.token } : {}),
    ...(d.decision === "edit" && d.args ? { args: d.args } : {}),
    ...(d.comment ? { comment: d.comment } : {}),
  };
}

/**
 * Sends a decision from the inbox to the thread's run and reads the resumed run's UI
 * message stream to its end (the run goes on to its next stop), returning the last run
 * status it reported; `onAccepted` runs as soon as the server accepted the decision.
 * Refusals come back as `{ ok: false }` with the server's message.
 */
export async function postDecision(
  threadId: string,
  approval: { approvalId: string; token: string | null; argsHash: string },
  d: ApprovalDecision,
  /** Called once the server has accepted the decision, before the resumed run is read to its end. */
  onAccepted?: () => void,
): Promise<DecisionOutcome> {
  let res: Response;
  try {
    res = await fetch(`/api/threads/${threadId}/stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ input: decisionInput(approval, d) }),
    });
  } catch (err) {
    return { ok: false, status: 0, reason: "network", message: `The server could not be reached: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { reason?: string; message?: string } } | null;
    return { ok: false, status: res.status, reason: body?.error?.reason ?? "http_error", message: body?.error?.message ?? `HTTP ${res.status}` };
  }
  onAccepted?.();
  let runStatus: string | null = null;
  let error: string | null = null;
  const text = await res.text().catch(() => "");
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
    try {
      const chunk = JSON.parse(line.slice(6)) as { type?: string; data?: { status?: string; error?: { message?: string } | null }; errorText?: string };
      if (chunk.type === "data-run" && chunk.data?.status) {
        runStatus = chunk.data.status;
        error = chunk.data.error?.message ?? null;
      } else if (chunk.type === "error") {
        error = chunk.errorText ?? "The run failed.";
      }
    } catch {
      // not a JSON chunk
    }
  }
  return { ok: true, runStatus, error };
}
