import { expect, test } from "./fixtures";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";

/**
 * The three-agent "Research brief" template: handoffs to the researcher, writer
 * and reviewer, the write approved from the card, the brief in the workspace and the
 * reviewer's verdict; and directed mode, where one picked agent does the task.
 */
test("research brief: three agents hand off, the brief is written after approval and reviewed", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  const flows = new FlowsPage(page);
  await flows.newFromTemplate("research-brief");
  for (const id of ["researcher", "writer", "reviewer"]) await expect(page.getByTestId(`flow-node-${id}`)).toBeVisible();
  await flows.startRun("Write a brief of notes.md and release-notes.md into brief.md");

  const run = new RunPage(page);
  await run.waitForStatus("awaiting approval");
  await expect(page.getByTestId("plan-step")).toHaveCount(4);
  // The two reads have no dependencies: one wave, side by side.
  await expect(page.getByTestId("plan-wave").first()).toHaveAttribute("data-size", "2");
  await expect(page.getByTestId("handoff")).toHaveText([/Researcher/, /Researcher/, /Writer/]);
  await run.approvalCard().getByTestId("approve").click();
  await run.waitForStatus("completed");
  await expect(page.getByTestId("handoff").last()).toContainText("Reviewer");
  await expect(page.getByTestId("step-event").last()).toContainText(/Review of brief\.md: .*Approved/);
  await expect(page.getByTestId("run-tokens")).toContainText("tokens in");
  expect(await run.openWorkspaceFile("brief.md")).toContain("# Summary of notes.md and release-notes.md");
});

test("directed mode: the picked agent does the task alone, with no planning", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  const flows = new FlowsPage(page);
  await flows.newFromTemplate("research-brief");
  await page.getByTestId("run-agent").selectOption("researcher");
  await flows.startRun("Read release-notes.md");
  const run = new RunPage(page);
  await run.waitForStatus("completed");
  await expect(page.getByTestId("plan-step")).toHaveCount(1);
  await expect(page.getByTestId("handoff")).toHaveText([/Researcher/]);
  await expect(page.getByTestId("approval-card")).toHaveCount(0);
});
