"use client";
import { useEffect, useSyncExternalStore } from "react";

/**
 * A polite live region that tells screen-reader users when an approval needs them: approval
 * cards call {@link announceApproval} when they appear, and the one {@link ApprovalAnnouncer}
 * of the page speaks it. The region is on the page before any card, as assistive
 * technologies only read changes to a region they already know.
 */

let message = "";
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Says `text` in the page's approval live region. The same text twice in a row is still
 * spoken twice (a no-break space tells the two apart).
 */
export function announceApproval(text: string): void {
  message = message === text ? `${text}\u00a0` : text;
  for (const l of listeners) l();
}

/** The page's live region for approvals (visually hidden). Render it once per page. */
export function ApprovalAnnouncer() {
  const text = useSyncExternalStore(
    subscribe,
    () => message,
    () => "",
  );
  // A later page starts silent, without the last page's message.
  useEffect(
    () => () => {
      message = "";
    },
    [],
  );
  return (
    <output aria-live="polite" aria-atomic="true" className="sr-only" data-testid="approval-announcer">
      {text}
    </output>
  );
}
