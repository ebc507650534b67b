import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { InboxPage, runUntilApproval } from "./pages/approvals";
import { RunPage, SignInPage } from "./pages/app";
import { APPROVER, VIEWER } from "./pages/members";

/**
 * Runs followed live wherever they start (docs/architecture.md "Live streams"): run views
 * open on a thread (its owner's, a viewer's) follow the run an approver's decision in the
 * inbox starts, without a reload; a reload shows the same timeline.
 */

async function signedInPage(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await new SignInPage(page).signInAndWait(who.email, who.password);
  return page;
}

const markDocument = (page: Page) =>
  page.evaluate(() => {
    (window as unknown as { __sameDocument?: boolean }).__sameDocument = true;
  });
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

test.beforeEach(async ({ page }) => {
  await new SignInPage(page).signInAndWait();
});

test("open run views follow the run an approval decided in the inbox starts, without a reload", async ({ page, browser }) => {
  const { threadId } = await runUntilApproval(page);
  const viewer = await signedInPage(browser, VIEWER);
  await viewer.goto(`/threads/${threadId}`);
  await new RunPage(viewer).waitForStatus("awaiting approval");
  await markDocument(page);
  await markDocument(viewer);

  const approver = await signedInPage(browser, APPROVER);
  const inbox = new InboxPage(approver);
  await inbox.open();
  await inbox.itemOf(threadId).getByTestId("approve").click();
  await expect(inbox.itemOf(threadId)).toHaveCount(0, { timeout: 30_000 });

  for (const p of [page, viewer]) {
    await new RunPage(p).waitForStatus("completed");
    // The write ran and the answer arrived, live, in the page that was already open.
    await expect(p.locator('[data-testid="tool-call"][data-tool="write_file"]').last()).toHaveAttribute("data-status", "done");
    await expect(p.getByTestId("final-answer").last()).toBeVisible();
    expect(await sameDocument(p)).toBe(true);
  }
  const live = await page.getByTestId("timeline").innerText();
  await page.reload();
  await new RunPage(page).waitForStatus("completed");
  // The reload replays the same parts (the decision's own message line aside: it is stored, not streamed).
  const reloaded = await page.getByTestId("timeline").innerText();
  for (const line of live.split("\n").filter((l) => l.trim() !== "")) expect(reloaded).toContain(line);
  expect(await new RunPage(page).openWorkspaceFile("summary.md")).toContain("# Summary of notes.md");
  await viewer.context().close();
  await approver.context().close();
});
