import { diffLines } from "diff";

/**
 * The line diff of a file write (jsdiff's `diffLines`), as rows a card can show: added and
 * removed lines with their line numbers, a few unchanged lines around each change, and the
 * longer unchanged stretches folded into one "gap" row. Client-safe.
 */

/** Largest side of a diff, in UTF-8 bytes (256 kB); bigger texts are not diffed. */
export const DIFF_MAX_BYTES = 256_000;
/** Most rows a diff shows; the rest are counted, not shown. */
export const DIFF_MAX_ROWS = 2_000;
/** Unchanged lines kept on each side of a change (as `diff -U3`). */
export const DIFF_CONTEXT_LINES = 3;
/** Longest time jsdiff may spend on one diff, ms; a slower diff is given up. */
export const DIFF_TIMEOUT_MS = 1_000;

/** One row: a line added, removed or unchanged, or a fold of `count` unchanged lines. */
export type DiffRow =
  | {
      kind: "add" | "del" | "same";
      /** 1-based line number in the current file (del, same). */
      oldLine?: number;
      /** 1-based line number in the new content (add, same). */
      newLine?: number;
      text: string;
      /** The line is the last one and has no line break after it. */
      noEol?: boolean;
    }
  | { kind: "gap"; count: number };

/** The outcome of {@link lineDiff}. */
export type LineDiff =
  | {
      ok: true;
      rows: DiffRow[];
      /** Lines added and removed in all (shown or not). */
      added: number;
      removed: number;
      /** Rows left out after {@link DIFF_MAX_ROWS}. */
      hiddenRows: number;
    }
  | { ok: false; reason: "too_large" | "too_slow" /** Size of the bigger side, UTF-8 bytes. */; sizeBytes: number };

type LineRow = Extract<DiffRow, { kind: "add" | "del" | "same" }>;

/** The lines of one jsdiff change; the last one flagged when it has no line break. */
function linesOf(value: string): { text: string; noEol: boolean }[] {
  const parts = value.split("\n");
  const endsWithBreak = parts.at(-1) === "";
  if (endsWithBreak) parts.pop();
  return parts.map((text, i) => ({ text, noEol: !endsWithBreak && i === parts.length - 1 }));
}

/** Keeps changes and their context, folding the other unchanged lines into gap rows. */
function fold(rows: LineRow[], context: number): DiffRow[] {
  const keep = rows.map((r) => r.kind !== "same");
  for (const [i, r] of rows.entries()) {
    if (r.kind === "same") continue;
    for (let j = Math.max(0, i - context); j <= Math.min(rows.length - 1, i + context); j++) keep[j] = true;
  }
  const out: DiffRow[] = [];
  let gap = 0;
  for (const [i, r] of rows.entries()) {
    if (keep[i]) {
      if (gap > 0) out.push({ kind: "gap", count: gap });
      gap = 0;
      out.push(r);
    } else {
      gap += 1;
    }
  }
  if (gap > 0) out.push({ kind: "gap", count: gap });
  return out;
}

/**
 * The line diff from the file as it is now to the content a write proposes.
 * @param before the current text, or null when the file does not exist (every line added).
 * @param after the proposed content.
 * @returns rows (no rows when nothing changes), or `ok: false` when a side is over
 *   {@link DIFF_MAX_BYTES} (`too_large`) or jsdiff gave up after {@link DIFF_TIMEOUT_MS}
 *   (`too_slow`).
 */
export function lineDiff(before: string | null, after: string): LineDiff {
  const encoder = new TextEncoder();
  const sizeBytes = Math.max(encoder.encode(before ?? "").byteLength, encoder.encode(after).byteLength);
  if (sizeBytes > DIFF_MAX_BYTES) return { ok: false, reason: "too_large", sizeBytes };
  const changes = diffLines(before ?? "", after, { timeout: DIFF_TIMEOUT_MS });
  if (!changes) return { ok: false, reason: "too_slow", sizeBytes };
  const rows: LineRow[] = [];
  let oldLine = 1;
  let newLine = 1;
  let added = 0;
  let removed = 0;
  for (const change of changes) {
    for (const { text, noEol } of linesOf(change.value)) {
      const flag = noEol ? { noEol: true } : {};
      if (change.added) {
        rows.push({ kind: "add", newLine: newLine++, text, ...flag });
        added += 1;
      } else if (change.removed) {
        rows.push({ kind: "del", oldLine: oldLine++, text, ...flag });
        removed += 1;
      } else {
        rows.push({ kind: "same", oldLine: oldLine++, newLine: newLine++, text, ...flag });
      }
    }
  }
  const folded = added + removed === 0 ? [] : fold(rows, DIFF_CONTEXT_LINES);
  return { ok: true, rows: folded.slice(0, DIFF_MAX_ROWS), added, removed, hiddenRows: Math.max(0, folded.length - DIFF_MAX_ROWS) };
}
