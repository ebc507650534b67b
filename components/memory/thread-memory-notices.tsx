"use client";
import Link from "next/link";
import styles from "./memory.module.css";
import { memoryHref } from "./memory-url";

/** What the last memory action did, in words, with the fact to link to when it reached long-term memory. */
export interface MemoryOutcome {
  text: string;
  factId?: string;
}

/**
 * The lines above the Memory tab's sections: that memory is off for the flow (`enabled`
 * false), why this user's buttons are disabled (`reasons`), the last error (`error`), and the
 * last action's outcome (`notice`), with a link to the fact on the memory page.
 */
export function ThreadMemoryNotices({
  enabled,
  reasons,
  error,
  notice,
  workspaceId,
}: {
  enabled: boolean;
  reasons: (string | undefined)[];
  error: string | null;
  notice: MemoryOutcome | null;
  workspaceId: string;
}) {
  const why = reasons.filter(Boolean);
  return (
    <>
      {enabled ? null : (
        <p className="small card" data-testid="thread-memory-off">
          Memory is off for this flow: its agents get no memory injected and its runs add no short-term entries. Turn it on in the flow's settings (Memory) to use it.
        </p>
      )}
      {why.length > 0 ? (
        <p className="small muted" data-testid="thread-memory-readonly">
          {why.join(" ")}
        </p>
      ) : null}
      {error ? (
        <p className="error small" role="alert" data-testid="thread-memory-error">
          {error}
        </p>
      ) : null}
      {notice ? (
        // Announced by the toast of the same outcome; this stays on screen, with its link.
        <p className={`small card ${styles.notice}`} data-testid="thread-memory-notice">
          {notice.text}{" "}
          {notice.factId ? (
            <Link href={memoryHref({ workspace: workspaceId, fact: notice.factId })} data-testid="thread-memory-notice-link">
              See it on the memory page
            </Link>
          ) : null}
        </p>
      ) : null}
    </>
  );
}
