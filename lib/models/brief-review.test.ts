import { describe, expect, it } from "vitest";
import { claimsOf, parseVerdict, reviewDraft } from "./brief-review";
import { heldOut } from "./offline-run-fixture";

/** The Reviewer's check of a draft against its sources, and its verdict format. */
describe("brief review", () => {
  const survey = { file: "source-survey.md", text: heldOut("source-survey.md") };
  const pilot = { file: "source-pilot.md", text: heldOut("source-pilot.md") };

  it("reads the claims of a draft with their citations, not its headings or notes", () => {
    const draft =
      "# Brief\n\n_For the board._\n\n- Desk occupancy rose from 31% to 57% on team days. (source: source-pilot.md)\n\nThe survey had 412 answers. It ran in February.\n\n_Sources: source-pilot.md (1 points)._\n";
    expect(claimsOf(draft)).toEqual([
      { text: "Desk occupancy rose from 31% to 57% on team days.", cites: ["source-pilot.md"], heading: "" },
      { text: "The survey had 412 answers.", cites: [], heading: "" },
      { text: "It ran in February.", cites: [], heading: "" },
    ]);
  });

  it("flags a point with a number no source has, a point cited to the wrong source, and an unused source", () => {
    const draft = [
      "- 64% of respondents work from home at least three days a week. (source: source-survey.md)",
      "- 71% of respondents work from home at least three days a week. (source: source-survey.md)",
      "- Desk occupancy rose from 31% to 57% on team days. (source: source-survey.md)",
    ].join("\n");
    const review = reviewDraft("brief.md", draft, [survey, pilot]);
    expect(review.approved).toBe(false);
    expect(review.unsupported).toEqual(["71% of respondents work from home at least three days a week.", "Desk occupancy rose from 31% to 57% on team days."]);
    expect(review.unused).toEqual(["source-pilot.md"]);
    expect(parseVerdict(review.text)).toEqual({ approved: false, unsupported: review.unsupported, unused: ["source-pilot.md"] });
  });

  it("does not approve a draft that makes no point", () => {
    const review = reviewDraft("brief.md", "# Brief\n", [survey]);
    expect(review.text.split("\n")[0]).toBe("Verdict: changes needed");
    expect(review.text).toContain("It makes no point to check.");
  });

  it("reads a verdict back, and nothing from a text without one", () => {
    expect(parseVerdict("Verdict: approved\n\nReview of a.md: fine.")).toEqual({ approved: true, unsupported: [], unused: [] });
    expect(parseVerdict("verdict: Changes needed\n- Unused source: b.md (could not be read: timeout)")).toEqual({ approved: false, unsupported: [], unused: ["b.md"] });
    expect(parseVerdict("Looks good to me.\nVerdict: approved")).toBeUndefined();
  });
});
