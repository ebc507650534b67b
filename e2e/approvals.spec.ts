import { expect, test } from "@playwright/test";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";

/**
 * The approval inbox (issue 4, first slice): a run waiting for approval shows up in the
 * inbox with its exact arguments and risk, the navigation counts it, and approving there
 * resumes the run to the end.
 */
test("approve from the inbox: the run resumes and finishes", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  const flows = new FlowsPage(page);
  await flows.newFromTemplate();
  await flows.startRun("Summarize release-notes.md into notes-summary.md");
  const run = new RunPage(page);
  await run.waitForStatus("awaiting approval");
  const threadUrl = page.url();
  const threadId = threadUrl.split("/threads/")[1] ?? "";

  await expect(page.getByTestId("approvals-badge")).toBeVisible();
  await page.getByTestId("nav-approvals").click();
  const item = page.locator("li", { has: page.locator(`a[href="/threads/${threadId}"]`) });
  await expect(item.getByTestId("approval-tool")).toHaveText("write_file");
  await expect(item.getByTestId("approval-args")).toContainText('"path": "notes-summary.md"');
  await expect(item.locator("[data-risk]")).toHaveAttribute("data-risk", "medium");
  await item.getByTestId("approve").click();
  await expect(page.locator(`a[href="/threads/${threadId}"]`)).toHaveCount(0);

  await page.goto(threadUrl);
  await run.waitForStatus("completed");
  expect(await run.openWorkspaceFile("notes-summary.md")).toContain("# Summary of release-notes.md");
});
