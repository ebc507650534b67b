import { describe, expect, it } from "vitest";
import { feedbackOf, isHumanAnswer, shapingOf, sourcesOf, unreadSourcesOf } from "./step-context";

/** Reading the earlier steps' results: sources, a person's answers, a reviewer's feedback, failures. */
describe("step context", () => {
  const q = "Who is this summary for, and what should it focus on?";

  it("reads the audience and the focus from the answer to a Human-input question", () => {
    expect(shapingOf([{ task: q, result: "for the engineering managers; focus on deadlines" }])).toEqual({ audience: "the engineering managers", focus: "deadlines" });
    expect(shapingOf([{ task: q, result: "For the release team, focus on dates." }])).toEqual({ audience: "the release team", focus: "dates" });
    expect(shapingOf([{ task: q, result: "It's for new hires and focus on the action items" }])).toEqual({ audience: "new hires", focus: "action items" });
    expect(shapingOf([{ task: q, result: "Finance leads. Highlight the costs" }])).toEqual({ audience: "Finance leads", focus: "costs" });
    expect(shapingOf([{ task: "Which tone?", result: "Audience: the board" }])).toEqual({ audience: "the board" });
    expect(shapingOf([])).toEqual({});
  });

  it("a file that was read is a source, an answer or a failure is not", () => {
    const context = [
      { task: q, result: "for the board; focus on risks" },
      { task: "Read a.md", result: "Read 5 characters from a.md:\nHello" },
      { task: "Read b.md", result: 'read_file on b.md failed: No such file or directory: "b.md".' },
      { task: "Read c.md", result: "ERROR: timeout" },
      { task: "Read d.md", result: "The file d.md says: ship on Monday." },
    ];
    expect(context.map(isHumanAnswer)).toEqual([true, false, false, false, false]);
    expect(sourcesOf(context)).toEqual([
      { file: "a.md", text: "Hello" },
      { file: "d.md", text: "The file d.md says: ship on Monday." },
    ]);
    expect(unreadSourcesOf(context).map((u) => u.file)).toEqual(["b.md", "c.md"]);
  });

  it("drops the line read_file puts above a PDF's text: it is not a point of the document", () => {
    const result = 'Read 90 characters from c.pdf:\n[Text extracted from the PDF "c.pdf" (1 page); the original can be downloaded.]\n\nThe fee is 48000 EUR.';
    expect(sourcesOf([{ task: "Read c.pdf", result }])).toEqual([{ file: "c.pdf", text: "The fee is 48000 EUR." }]);
  });

  it("reads a reviewer's feedback in the contract's format", () => {
    const result = "Verdict: changes needed\n- Unsupported: The team will hire five people.\n- Unused source: b.md (could not be read: timeout)\n- Unused source: c.md\n\nReview of x.md: …";
    expect(feedbackOf([{ task: "Reviewer feedback", result }])).toEqual({ unsupported: ["The team will hire five people."], unused: ["b.md", "c.md"] });
    expect(feedbackOf([{ task: "Read a.md", result }])).toBeUndefined();
  });
});
