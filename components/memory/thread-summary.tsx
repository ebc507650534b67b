"use client";
import styles from "./memory.module.css";

/**
 * The Memory tab's summary section (docs/architecture.md#memory): the summary written when a
 * run completes, with Summarize to (re)write it now. `summarizeReason` says why
 * this user may not; `summarizing` marks this section's action running, `disabled` any action.
 */
export function ThreadSummary({
  summary: body,
  summarizeReason,
  summarizing,
  disabled,
  onSummarize,
}: {
  summary: string | null | undefined;
  summarizeReason: string | undefined;
  summarizing: boolean;
  disabled: boolean;
  onSummarize: () => void;
}) {
  const summary = body?.trim() ? body : null;
  return (
    <div className={styles.section} data-testid="thread-summary">
      <div className="row">
        <h3>Summary</h3>
        <button type="button" className="secondary" onClick={onSummarize} disabled={summarizeReason !== undefined || disabled} title={summarizeReason} data-testid="thread-summarize">
          {summarizing ? "Summarizing…" : summary ? "Summarize again" : "Summarize"}
        </button>
      </div>
      {summary ? (
        <p className={styles.summary} data-testid="thread-summary-text">
          {summary}
        </p>
      ) : (
        <p className="small muted" data-testid="thread-summary-empty">
          No summary yet. One is written when a run completes; Summarize writes it now: the task, each step and how it ended, and the answer.
        </p>
      )}
    </div>
  );
}
