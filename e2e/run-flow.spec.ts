import { expect, test } from "./fixtures";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";

/**
 * The main job: sign in, open the template flow on the canvas, run the summary
 * task, watch plan and steps stream, approve the write from the approval card, see
 * summary.md in the workspace and the final answer; and the reject path.
 */
test.describe("run the Workspace assistant", () => {
  test.beforeEach(async ({ page }) => {
    await new SignInPage(page).signIn();
    await expect(page).toHaveURL(/\/flows$/);
  });

  test("approve the write: summary.md is written and the run completes", async ({ page }) => {
    const flows = new FlowsPage(page);
    await flows.newFromTemplate();
    for (const id of ["supervisor", "assistant", "t-write", "policy"]) await expect(page.getByTestId(`flow-node-${id}`)).toBeVisible();
    await flows.startRun("Summarize notes.md into summary.md");

    const run = new RunPage(page);
    await expect(page.getByTestId("plan")).toBeVisible();
    await expect(page.getByTestId("plan-step")).toHaveCount(2);
    await expect(page.getByTestId("model-badge")).toContainText("Offline model");
    await run.waitForStatus("awaiting approval");
    await expect(page.getByTestId("step-event").first()).toHaveAttribute("data-status", "completed");
    const card = run.approvalCard();
    await expect(card.getByTestId("approval-tool")).toHaveText("write_file");
    await expect(card.getByTestId("approval-args")).toContainText('"path": "summary.md"');
    await expect(card.getByTestId("approval-hash")).toHaveText(/^[0-9a-f]{16}…$/);
    await expect(card.getByTestId("approval-expiry")).toContainText("expires in");

    await expect(page.locator('[data-testid="tool-call"][data-tool="read_file"]')).toHaveAttribute("data-status", "done");
    await card.getByTestId("approve").click();
    await run.waitForStatus("completed");
    await expect(page.getByTestId("final-answer").last()).toContainText("summary.md");
    await expect(page.locator('[data-testid="tool-call"][data-tool="write_file"]')).toHaveAttribute("data-status", "done");
    await expect(card).toHaveAttribute("data-status", "consumed");
    const summary = await run.openWorkspaceFile("summary.md");
    expect(summary).toContain("# Summary of notes.md");

    // The audit trail lists the proposal, the approval and the execution, with the hash.
    await page.getByTestId("audit-link").click();
    await expect(page.locator('[data-testid="audit-row"][data-action="tool_proposed"]')).toHaveCount(2);
    await expect(page.locator('[data-testid="audit-row"][data-action="approval_consumed"]')).toContainText("demo@phylactery.dev");
    await expect(page.locator('[data-testid="audit-row"][data-action="tool_executed"]').last()).toContainText("write_file");
    await page.goBack();

    // A reload replays the same timeline from the stored run events.
    await page.reload();
    await run.waitForStatus("completed");
    await expect(page.getByTestId("plan-step")).toHaveCount(2);
    await expect(run.approvalCard()).toHaveAttribute("data-status", "consumed");
  });

  test("reject the write: the run ends incomplete, says who rejected what and why, and summary.md is not written", async ({ page }) => {
    const flows = new FlowsPage(page);
    await flows.newFromTemplate();
    await flows.startRun("Summarize notes.md into summary.md");
    const run = new RunPage(page);
    await run.waitForStatus("awaiting approval");
    await run.approvalCard().getByTestId("reject-reason").fill("not today");
    await run.approvalCard().getByTestId("reject").click();
    await run.waitForStatus("incomplete");
    await expect(run.status()).toHaveText("Incomplete");
    await expect(page.getByTestId("final-answer").last()).toContainText(/Not done:.*write_file summary\.md was not done: rejected by .+ \(not today\)/s);
    await expect(page.getByTestId("run-incomplete")).toContainText("rejected");
    await expect(run.approvalCard()).toHaveAttribute("data-status", "rejected");
    // notes.md is the demo workspace's library file (read-only), not the thread's own.
    await expect(page.getByTestId("ws-file-notes.md")).toBeVisible();
    await expect(page.getByTestId("ws-library-notes.md")).toHaveText("library");
    await expect(page.getByTestId("ws-file-summary.md")).toHaveCount(0);
  });
});
