import { expect, test } from "./fixtures";
import { AnswerRecorder } from "./pages/answer-recorder";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";

/**
 * Answers that stream (docs/runs.md "Streaming"): with the offline model, the run view shows
 * the answer growing word by word, and a reload shows the same answer whole; a running step's
 * own text shows on the step while its agent writes it.
 */
test.describe("answers that stream", () => {
  test("the answer appears word by word in the run view", async ({ page }) => {
    test.setTimeout(120_000);
    const recorder = new AnswerRecorder(page);
    await recorder.install();
    await new SignInPage(page).signIn();
    await expect(page).toHaveURL(/\/flows$/);
    const flows = new FlowsPage(page);
    await flows.newFromTemplate();
    await flows.startRun("hello");
    const run = new RunPage(page);
    await run.waitForStatus("completed");
    const answer = page.getByTestId("final-answer").last();
    await expect(answer).toContainText("offline model");
    await expect(answer).not.toHaveAttribute("data-streaming", "true");
    const final = (await answer.textContent()) ?? "";
    const seen = await recorder.texts();
    // Partial texts were on screen before the whole answer: each a beginning of it, shorter.
    const partial = seen.filter((t) => t !== final && final.startsWith(t));
    expect(partial.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toBe(final);
    expect(seen.indexOf(partial[0] ?? "")).toBeLessThan(seen.indexOf(final));
    await page.reload();
    await expect(page.getByTestId("final-answer").last()).toHaveText(final);
  });

  test("a running step's text is on screen before the step ends", async ({ page }) => {
    test.setTimeout(120_000);
    const recorder = new AnswerRecorder(page, "step-live-text");
    await recorder.install();
    await new SignInPage(page).signIn();
    await expect(page).toHaveURL(/\/flows$/);
    const flows = new FlowsPage(page);
    await flows.newFromTemplate();
    await flows.startRun("Read release-notes.md");
    const run = new RunPage(page);
    await run.waitForStatus("completed");
    // A step's result: in full when short, folded when long (its text in the fold's <pre>).
    const step = page
      .getByTestId("step-event")
      .filter({ has: page.locator(".result") })
      .last();
    await expect(step).toHaveAttribute("data-status", "completed");
    // The live text is gone once the step ended: its finished text shows instead.
    await expect(page.getByTestId("step-live-text")).toHaveCount(0);
    const result = ((await step.locator("pre.result, .result pre").first().textContent()) ?? "").trim();
    const seen = await recorder.texts();
    // Shown only while the step was in progress: partial texts, each a beginning of the result.
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((t) => result.startsWith(t.trim()))).toBe(true);
    expect(seen.some((t) => t.trim().length < result.length)).toBe(true);
    await page.reload();
    await expect(page.getByTestId("step-live-text")).toHaveCount(0);
  });
});
