import { describe, expect, it } from "vitest";
import { heldOut } from "../models/offline-run-fixture";
import { FACTS_PER_STEP, factCandidates } from "./fact-candidates";

/** What promote proposes from a step's result: facts, never bookkeeping (held-out documents). */
describe("fact candidates", () => {
  const read = (file: string) => ({ task: `Read ${file}`, result: `Read ${heldOut(file).length} characters from ${file}:\n${heldOut(file)}` });

  it("proposes the decisions of meeting notes that were read, with the file they come from", () => {
    expect(factCandidates(read("ops-sync-notes.md"))).toEqual([
      "ops-sync-notes.md: We decided to cut log retention from 90 to 30 days for non-audit logs.",
      "ops-sync-notes.md: The team agreed to move the nightly backup window from 02:00 to 04:00 UTC.",
      "ops-sync-notes.md: Audit logs stay at 400 days; legal must sign off on any change.",
    ]);
  });

  it("proposes a recommendation and dated facts of a study, at most three per step", () => {
    const facts = factCandidates(read("source-pilot.md"));
    expect(facts).toContain("source-pilot.md: The pilot team recommends fixed team days for every office from September 2026, with video bars in every meeting room by the end of the year.");
    expect(facts.length).toBeLessThanOrEqual(FACTS_PER_STEP);
    expect(facts.every((f) => f.startsWith("source-pilot.md: "))).toBe(true);
  });

  it("takes the source of a cited brief point from its citation", () => {
    const brief = "# Summary of a.md and b.md\n\n## Decisions\n\n- We decided to close the Lisbon office on 1 March 2027. (source: b.md)\n";
    expect(factCandidates({ task: "Summarize a.md and b.md", result: brief })).toEqual(["b.md: We decided to close the Lisbon office on 1 March 2027."]);
  });

  it("proposes nothing from bookkeeping, failures, refusals, reviews, to-do reports, memory or a person's answer", () => {
    const none = [
      "Wrote 392 bytes to brief.md.",
      "Wrote 2098 bytes to brief.md. The summary has 19 points from 2 sources (notes.md, release-notes.md).",
      "Deleted old.log.",
      ". has 3 entries:\n- README.md\n- notes.md\n- release-notes.md",
      'read_file on todo.md failed: No such file or directory: "todo.md".',
      'ERROR: No such file or directory: "todo.md".',
      "delete_file on release-notes.md was not run: BLOCKED by policy (File safety #4: delete_file BLOCKED): delete_file may not run in this flow.",
      "Verdict: approved\n\nReview of brief.md: 9 points of brief.md checked against a.md. Approved: every point is found in the source it names, and every source is used.",
      "Verdict: changes needed\n- Unsupported: The launch moved to 3 May 2026.",
      "Found 2 TODO lines in 1 files read (a.md):\n- a.md:3: TODO: ship on 4 May 2026",
      'Remembered: "the release is on 4 May 2026" (fact f1).',
      "From memory:\n- The release is on 4 May 2026.",
      "for the engineering managers; focus on deadlines",
      "I can't write summary.md: none of the earlier steps returned text to summarize.",
    ];
    for (const result of none) expect(factCandidates({ task: "Some step", result }), result).toEqual([]);
  });

  it("keeps a script's result as the answer to its task", () => {
    expect(factCandidates({ task: "Compute `6 * 7`", result: "The script returned: 42" })).toEqual(["Compute `6 * 7`: 42"]);
  });

  it("a changelog or a README without decisions or dates gives no proposals rather than noise", () => {
    expect(factCandidates(read("README-sections.md"))).toEqual([]);
    expect(factCandidates(read("README-setext.md"))).toEqual([]);
  });
});
