import { expect, test } from "./fixtures";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";

/**
 * A run's report is the truth (docs/runs.md "Status vocabulary"), seen as a user sees it
 * with the default offline model: a delete the policy blocks, and a task on a file that
 * does not exist. Neither is ever shown as Completed, and the answer says what was not done
 * and why.
 */
test.describe("truthful runs", () => {
  test.beforeEach(async ({ page }) => {
    await new SignInPage(page).signInAndWait();
  });

  test("a blocked delete: the run is Incomplete, the answer names the rule, the file is still there, the dashboard agrees", async ({ page }) => {
    const flows = new FlowsPage(page);
    await flows.newFromTemplate();
    await flows.startRun("Delete release-notes.md");
    const run = new RunPage(page);
    await run.waitForStatus("incomplete");
    await expect(run.status()).toHaveText("Incomplete");
    await expect(page.getByTestId("plan-step")).toHaveAttribute("data-status", "blocked");
    await expect(page.getByTestId("run-incomplete")).toContainText("0 of 1 step done, 1 blocked");
    const answer = page.getByTestId("final-answer").last();
    await expect(answer).toContainText("Nothing was done.");
    await expect(answer).toContainText(/delete_file release-notes\.md was not done: blocked by policy \(File safety #\d/);
    await expect(answer).not.toContainText("Deleted");
    await expect(page.getByTestId("ws-file-release-notes.md")).toBeVisible();
    const threadUrl = page.url();

    await page.goto("/flows");
    const threadId = new URL(threadUrl).pathname.split("/").at(-1);
    const row = page.getByTestId(`thread-row-${threadId}`);
    await expect(row.getByTestId("thread-status")).toHaveText("Incomplete");
  });

  test("a missing file: the read fails, is retried and re-planned, then the run asks how to go on; nothing is written", async ({ page }) => {
    const flows = new FlowsPage(page);
    await flows.newFromTemplate();
    await flows.startRun("Summarize missing.md into summary.md");
    const run = new RunPage(page);
    await run.waitForStatus("awaiting input");
    await expect(page.getByTestId("plan-step").first()).toHaveAttribute("data-status", "failed");
    await expect(page.getByTestId("plan-step").first()).toContainText(/read_file missing\.md failed/);
    await expect(page.getByText(/How should I proceed\?/).first()).toBeVisible();
    await expect(page.getByTestId("approval-card")).toHaveCount(0);
    await expect(page.getByTestId("ws-file-summary.md")).toHaveCount(0);
  });
});
