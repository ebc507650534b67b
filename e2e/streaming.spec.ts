import { expect, test } from "./fixtures";
import { AnswerRecorder } from "./pages/answer-recorder";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";

/**
 * Answers that stream (docs/runs.md "Streaming"): with the offline model, the run view shows
 * the answer growing word by word, and a reload shows the same answer whole.
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
});
