import { expect, test } from "./fixtures";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";

/**
 * The Guided summary template: its Human input step asks the user first and the
 * run waits for the answer; the answer is the step's result, then the Writer works and the
 * write waits for approval. A task its Router matches skips the question.
 */
test.describe("Human input and Router nodes", () => {
  test.beforeEach(async ({ page }) => {
    await new SignInPage(page).signInAndWait();
  });

  test("the run asks the Human input's question, waits, and goes on with the answer", async ({ page }) => {
    const flows = new FlowsPage(page);
    await flows.newFromTemplate("guided-summary");
    await expect(page.getByTestId("flow-node-audience")).toContainText("Who is this summary for");
    await expect(page.getByTestId("flow-node-router")).toBeVisible();
    await flows.startRun("Summarize notes.md into summary.md");

    const run = new RunPage(page);
    await run.waitForStatus("awaiting input");
    await expect(page.getByTestId("plan-step")).toHaveCount(3);
    await expect(page.getByText("Who is this summary for, and what should it focus on?").last()).toBeVisible();
    await page.getByTestId("composer-input").fill("For the release team; focus on dates.");
    await page.getByTestId("composer-send").click();
    await run.waitForStatus("awaiting approval");
    await expect(page.getByTestId("plan-step").first()).toContainText("Audience");
    await run.approvalCard().getByTestId("approve").click();
    await run.waitForStatus("completed");
    expect(await run.openWorkspaceFile("summary.md")).toContain("# Summary of notes.md");
  });

  test("a task the Router matches goes straight to its agent, without the question", async ({ page }) => {
    const flows = new FlowsPage(page);
    await flows.newFromTemplate("guided-summary");
    await flows.startRun("list the files");
    const run = new RunPage(page);
    await run.waitForStatus("completed");
    await expect(page.getByTestId("plan-step")).toHaveCount(1);
    await expect(page.locator('[data-testid="tool-call"][data-tool="list_files"]')).toHaveAttribute("data-status", "done");
  });
});
