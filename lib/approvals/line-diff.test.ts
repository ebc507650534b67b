import { describe, expect, it } from "vitest";
import { DIFF_MAX_BYTES, lineDiff } from "./line-diff";

describe("lineDiff: the current file against the proposed content", () => {
  it("a new file: every line is added, numbered from 1", () => {
    const d = lineDiff(null, "# Title\n\n- a\n");
    expect(d).toEqual({
      ok: true,
      added: 3,
      removed: 0,
      hiddenRows: 0,
      rows: [
        { kind: "add", newLine: 1, text: "# Title" },
        { kind: "add", newLine: 2, text: "" },
        { kind: "add", newLine: 3, text: "- a" },
      ],
    });
  });

  it("a change: removed and added lines with both line numbers, unchanged context around them", () => {
    const d = lineDiff("a\nb\nc\n", "a\nB\nc\nd\n");
    expect(d.ok && d.rows).toEqual([
      { kind: "same", oldLine: 1, newLine: 1, text: "a" },
      { kind: "del", oldLine: 2, text: "b" },
      { kind: "add", newLine: 2, text: "B" },
      { kind: "same", oldLine: 3, newLine: 3, text: "c" },
      { kind: "add", newLine: 4, text: "d" },
    ]);
    expect(d).toMatchObject({ added: 2, removed: 1 });
  });

  it("long unchanged stretches fold into one gap row, keeping three lines of context", () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const after = [...lines];
    after[9] = "changed";
    const d = lineDiff(`${lines.join("\n")}\n`, `${after.join("\n")}\n`);
    if (!d.ok) throw new Error("expected a diff");
    expect(d.rows[0]).toEqual({ kind: "gap", count: 6 });
    expect(d.rows.filter((r) => r.kind === "same").map((r) => r.kind === "same" && r.text)).toEqual(["line 7", "line 8", "line 9", "line 11", "line 12", "line 13"]);
    expect(d.rows.at(-1)).toEqual({ kind: "gap", count: 7 });
  });

  it("identical content: no rows", () => {
    expect(lineDiff("same\n", "same\n")).toEqual({ ok: true, rows: [], added: 0, removed: 0, hiddenRows: 0 });
  });

  it("a missing final line break is marked, so the line does not look unchanged", () => {
    const d = lineDiff("a\n", "a");
    expect(d.ok && d.rows).toEqual([
      { kind: "del", oldLine: 1, text: "a" },
      { kind: "add", newLine: 1, text: "a", noEol: true },
    ]);
  });

  it("a side over the limit is not diffed, and says how big it is", () => {
    expect(lineDiff(null, "x".repeat(DIFF_MAX_BYTES + 1))).toEqual({ ok: false, reason: "too_large", sizeBytes: DIFF_MAX_BYTES + 1 });
    // The limit is in UTF-8 bytes: 2 bytes per "é".
    expect(lineDiff("é".repeat(DIFF_MAX_BYTES / 2 + 1), "")).toMatchObject({ ok: false, reason: "too_large" });
  });
});
