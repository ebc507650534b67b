import { expect, test } from "./fixtures";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";

/** The last sentence of the long task: the only place that names the output file. */
const END = "Write the result into steering-update.md";

/** A request of exactly `chars` chars, as a new user writes one, naming its output file only at its end. */
function longTask(chars: number): string {
  const context =
    "Read notes.md and prepare an update for the steering group that covers the status of each workstream, the decisions taken since the last meeting, the owners and their dates, and the risks that are still open. ";
  const head = "Summarize notes.md for the steering group. ";
  const body = context.repeat(Math.ceil(chars / context.length)).slice(0, chars - head.length - END.length - 1);
  return `${head}${body.replace(/\s$/, ".")} ${END}`;
}

/**
 * A long task typed in the browser (docs/runs.md#tasks): the run starts from all of it (the
 * file named at its end is the one written), the title is shortened for display only, the
 * header speaks the status vocabulary (engine lifecycle states are in the audit view), and
 * over 4,000 chars the run form and the composer say so and refuse, never cut.
 */
test.describe("a long task", () => {
  test.beforeEach(async ({ page }) => {
    await new SignInPage(page).signIn();
    await expect(page).toHaveURL(/\/flows$/);
  });

  test("a 1,900-char task runs in full; 4,001 chars are refused by the form and the composer", async ({ page }) => {
    const flows = new FlowsPage(page);
    await flows.newFromTemplate();
    const task = longTask(1900);
    expect(task).toHaveLength(1900);

    // Over the limit: the form says why and refuses; nothing is cut.
    await page.getByTestId("run-task").first().fill(longTask(4001));
    await expect(page.getByTestId("run-task-limit").first()).toHaveAttribute("data-over", "true");
    await expect(page.getByTestId("run-task-limit").first()).toContainText("4,001 characters; at most 4,000");
    await expect(page.getByTestId("run-start").first()).toBeDisabled();

    await page.getByTestId("run-task").first().fill(task);
    await expect(page.getByTestId("run-task-limit").first()).toHaveText("1,900 / 4,000 characters");
    await page.getByTestId("run-start").first().click();
    await page.waitForURL(/\/threads\//);

    const run = new RunPage(page);
    await run.waitForStatus("awaiting approval");
    // The model planned from the whole task: the write goes to the file its last words name.
    await expect(run.approvalCard().getByTestId("approval-args")).toContainText('"path": "steering-update.md"');
    await expect(page.getByTestId("thread-title")).toHaveText(/…$/);
    // The header speaks the run status vocabulary only.
    await expect(page.getByTestId("run-header")).not.toContainText(/lifecycle|STEP_EXECUTION|WAIT_HUMAN|COMPLETED/);

    // The composer refuses a message over the limit the same way.
    await page.getByTestId("composer-input").fill(longTask(4001));
    await expect(page.getByTestId("composer-limit")).toHaveAttribute("data-over", "true");
    await expect(page.getByTestId("composer-send")).toBeDisabled();

    // The engine's lifecycle states are in the audit view.
    await page.getByTestId("audit-link").click();
    await expect(page.getByTestId("lifecycle-row").first()).toBeVisible();
    await expect(page.locator('[data-testid="lifecycle-row"][data-to="WAIT_HUMAN"]').first()).toBeVisible();
  });
});
