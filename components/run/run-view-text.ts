import { argsValue, diffArgs } from "@/components/approvals/args-diff";
import type { RunDataTypes } from "@/lib/events/ui-parts";
import type { ApprovalDecision } from "./approval-card";

/** The user message the run view shows for a decision, e.g. "Reject write_file: not today". */
export function decisionLabel(a: RunDataTypes["approval"], d: ApprovalDecision): string {
  const why = d.comment ? `: ${d.comment}` : "";
  switch (d.decision) {
    case "approve":
      return `Approve ${a.toolName}`;
    case "edit": {
      const fields = diffArgs(argsValue(a.canonicalArgs), d.args ?? {}).map((c) => c.path);
      return `Edit ${a.toolName}${fields.length ? ` (${fields.join(", ")})` : ""} and run it`;
    }
    case "respond":
      return `Respond to ${a.toolName}${why}`;
    case "reject":
      return `Reject ${a.toolName}${why}`;
    case "ignore":
      return `Ignore ${a.toolName} and cancel the run`;
  }
}

/** Error text from a failed request: the server's `{ error: { message } }` when present. */
export function errorText(err: Error): string {
  try {
    const body = JSON.parse(err.message) as { error?: { message?: string } };
    return body.error?.message ?? err.message;
  } catch {
    return err.message;
  }
}

/**
 * Why a choice on an unknown-outcome card was refused, and what to do: the server's message
 * (which says it for 403 and 409), or for a failure without one, to try again.
 */
export function choiceErrorText(err: Error): string {
  const text = errorText(err);
  return text.startsWith("{") || text.startsWith("<") || !/[.!?]$/.test(text.trim()) ? `Your choice was not recorded (${text.slice(0, 200)}). Try again; if it keeps failing, reload the page.` : text;
}
