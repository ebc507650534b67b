"use client";
import { formatBytes } from "@/lib/format-size";
import { useMemo } from "react";
import { DIFF_MAX_BYTES, DIFF_MAX_ROWS, lineDiff } from "@/lib/approvals/line-diff";
import styles from "./approvals.module.css";

/**
 * The line diff from the file as it is now (`before`, null for a new file) to the proposed
 * content (`after`): a table of removed (−) and added (+) lines with their line numbers in
 * the current file and in the new content, three unchanged lines around each change, and
 * folds for the rest. Too large or too slow to compute: a note instead of the table.
 */
export function LineDiffView({ before, after, testId = "line-diff" }: { before: string | null; after: string; testId?: string }) {
  const diff = useMemo(() => lineDiff(before, after), [before, after]);
  if (!diff.ok) {
    return (
      <p className="small muted" data-testid={testId} data-state={diff.reason}>
        {diff.reason === "too_large"
          ? `No line diff: the text is ${formatBytes(diff.sizeBytes)}, over the ${formatBytes(DIFF_MAX_BYTES)} a card compares. Read the content above, or the exact arguments below.`
          : "No line diff: the two texts differ too much to compare quickly. Read the content above, or the exact arguments below."}
      </p>
    );
  }
  if (diff.rows.length === 0) {
    return (
      <p className="small muted" data-testid={testId} data-state="same" data-added={0} data-removed={0}>
        No change: the file already holds exactly this content.
      </p>
    );
  }
  return (
    <div className={`${styles.box} ${styles.diffBox}`}>
      <table
        className={styles.diff}
        data-testid={testId}
        data-state="diff"
        data-added={diff.added}
        data-removed={diff.removed}
        aria-label={`Line diff: ${diff.added} lines added, ${diff.removed} removed`}
      >
        <thead className="sr-only">
          <tr>
            <th scope="col">Line now</th>
            <th scope="col">Line after</th>
            <th scope="col">Change</th>
            <th scope="col">Text</th>
          </tr>
        </thead>
        <tbody>
          {diff.rows.map((r, i) =>
            r.kind === "gap" ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place in the diff
              <tr key={i} className={styles.gap} data-kind="gap">
                <td colSpan={4}>
                  ⋯ {r.count} unchanged line{r.count === 1 ? "" : "s"}
                </td>
              </tr>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place in the diff
              <tr key={i} className={r.kind === "add" ? styles.add : r.kind === "del" ? styles.del : undefined} data-kind={r.kind}>
                <td className={styles.lineNo}>{r.oldLine ?? ""}</td>
                <td className={styles.lineNo}>{r.newLine ?? ""}</td>
                <td className={styles.sign}>
                  <span aria-hidden="true">{r.kind === "add" ? "+" : r.kind === "del" ? "−" : " "}</span>
                  <span className="sr-only">{r.kind === "add" ? "added" : r.kind === "del" ? "removed" : "unchanged"}</span>
                </td>
                <td className={styles.text} data-testid="diff-line-text">
                  {r.text}
                  {r.noEol ? <span className={styles.noEol}> (no line break at the end)</span> : null}
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
      {diff.hiddenRows > 0 ? (
        <p className="small muted">
          The first {DIFF_MAX_ROWS.toLocaleString("en")} rows are shown; {diff.hiddenRows.toLocaleString("en")} more are not.
        </p>
      ) : null}
    </div>
  );
}
