"use client";
import { LocalTime } from "@/components/ui/local-time";
import styles from "./memory.module.css";

/** The thread's summary as the route sends it: text, or an object with the text and when it was written. */
export type SummaryBody = string | { text?: string; content?: string; summary?: string; at?: string; summarizedAt?: string; createdAt?: string } | null;

/** Text and time of a summary, whatever shape the route gave it; null when there is no text. */
export function summaryOf(s: SummaryBody | undefined): { text: string; at: string | null } | null {
  if (!s) return null;
  if (typeof s === "string") return s.trim() ? { text: s, at: null } : null;
  const text = s.text ?? s.content ?? s.summary ?? "";
  return text.trim() ? { text, at: s.at ?? s.summarizedAt ?? s.createdAt ?? null } : null;
}

/**
 * The Memory tab's summary section (docs/architecture.md#memory): the summary written when a
 * run completes, and when, with Summarize to (re)write it now. `summarizeReason` says why
 * this user may not; `summarizing` marks this section's action running, `disabled` any action.
 */
export function ThreadSummary({
  summary: body,
  summarizeReason,
  summarizing,
  disabled,
  onSummarize,
}: {
  summary: SummaryBody | undefined;
  summarizeReason: string | undefined;
  summarizing: boolean;
  disabled: boolean;
  onSummarize: () => void;
}) {
  const summary = summaryOf(body);
  return (
    <div className={styles.section} data-testid="thread-summary">
      <div className="row">
        <h3>Summary</h3>
        <button
          type="button"
          className="secondary"
          onClick={onSummarize}
          disabled={summarizeReason !== undefined || disabled}
          title={summarizeReason}
          data-testid="thread-summarize"
        >
          {summarizing ? "Summarizing…" : summary ? "Summarize again" : "Summarize"}
        </button>
      </div>
      {summary ? (
        <>
          <p className={styles.summary} data-testid="thread-summary-text">
            {summary.text}
          </p>
          {summary.at ? (
            <p className="small muted">
              written <LocalTime at={summary.at} />
            </p>
          ) : null}
        </>
      ) : (
        <p className="small muted" data-testid="thread-summary-empty">
          No summary yet. One is written when a run completes; Summarize writes it now: the task, each step and how it ended, and the answer.
        </p>
      )}
    </div>
  );
}
