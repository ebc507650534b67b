"use client";
import Link from "next/link";
import { useEffect, useSyncExternalStore } from "react";

/**
 * The confirmation of a decision taken in the inbox or on an approval's page: what was
 * decided, on which tool and thread, how the run went on, and a link to the run. It lives
 * above the list, not in the decided item's card: deciding takes the item out of the
 * pending list (the page refreshes), which would take a confirmation inside the card with it.
 */

/** One confirmation: the decision and where it went. */
export interface DecisionNoticeData {
  /** approve | edit | respond | reject | ignore. */
  decision: string;
  toolName: string;
  threadId: string;
  threadTitle: string;
  /** How the run went on: "The run resumed." at first, then the status it reached. */
  outcome: string;
  /** The run's error, or a refusal's message (then `failed` is true). */
  error?: string | null;
  failed?: boolean;
}

let current: DecisionNoticeData | null = null;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Shows (or replaces) the page's decision confirmation. */
export function showDecisionNotice(notice: DecisionNoticeData | null): void {
  current = notice;
  for (const l of listeners) l();
}

/** What a decision did, in the past tense ("Approved", "Rejected"…). */
const DONE: Record<string, string> = { approve: "Approved", edit: "Approved with your edit", respond: "Answered", reject: "Rejected", ignore: "Ignored" };

/**
 * The page's decision confirmation (a polite live region, on the page before any decision,
 * as assistive technologies only read changes to a region they already know). Render it
 * once per page, above the approvals.
 */
export function DecisionNotice() {
  const notice = useSyncExternalStore(
    subscribe,
    () => current,
    () => null,
  );
  // A later page starts without the last page's confirmation.
  useEffect(
    () => () => {
      current = null;
    },
    [],
  );
  return (
    <output aria-live="polite" className="block" data-testid="decision-notice-region">
      {notice ? (
        <span className={`card row wrap${notice.failed ? " error" : ""}`} data-testid="decision-notice" data-decision={notice.decision} data-failed={notice.failed ? "true" : "false"}>
          <span>
            {notice.failed ? (
              <>
                Your decision on {notice.toolName} was not taken: {notice.error}
              </>
            ) : (
              <>
                <strong>{DONE[notice.decision] ?? notice.decision}</strong>: {notice.toolName} in “{notice.threadTitle}”. <span data-testid="decision-notice-outcome">{notice.outcome}</span>
                {notice.error ? ` ${notice.error}` : ""}
              </>
            )}{" "}
            <Link href={`/threads/${notice.threadId}`} data-testid="decision-notice-run">
              Open the run
            </Link>
          </span>
          <button type="button" className="link" onClick={() => showDecisionNotice(null)} data-testid="decision-notice-dismiss">
            Dismiss
          </button>
        </span>
      ) : null}
    </output>
  );
}
