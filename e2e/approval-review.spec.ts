import { expect, type Page, test } from "@playwright/test";
import { ApprovalReview, collectPageErrors } from "./pages/approval-review";
import { InboxPage, runUntilApproval } from "./pages/approvals";
import { RunPage, SignInPage } from "./pages/app";

/**
 * Approvals a person can judge: a new approval's card is brought into view and announced;
 * a file write shows its content rendered and a line diff against the file as it is now
 * (a new file, a change to an existing one), in the run view and in the inbox; Edit is a
 * form generated from the tool's input schema, with raw JSON as a toggle; and pages with
 * pending approvals load without console errors (no hydration mismatch from the countdown).
 */

test.beforeEach(async ({ page }) => {
  await new SignInPage(page).signInAndWait();
});

/** The first line of the demo library's README (templates/library/README.md), which the thread reads through the mounted library. */
const README_FIRST = "# The demo workspace's library";

/** The summary task's card, once the run waits for approval. */
async function summaryCard(page: Page, task?: string) {
  const ids = await runUntilApproval(page, task);
  const run = new RunPage(page);
  return { ...ids, run, card: run.approvalCard(), review: new ApprovalReview(run.approvalCard()) };
}

test("a new approval's card scrolls into view and is announced in a live region", async ({ page }) => {
  // A short window: the plan and the steps push the card below the fold.
  await page.setViewportSize({ width: 1000, height: 480 });
  const { card } = await summaryCard(page);
  await expect(card).toHaveAttribute("data-status", "pending");
  await expect(card).toBeInViewport();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
  const live = page.getByTestId("approval-announcer");
  await expect(live).toHaveAttribute("aria-live", "polite");
  await expect(live).toHaveText(/^Approval needed: write_file to summary\.md\. The run is paused/);
});

test("a new file: the content rendered as Markdown and every line added; once approved the card stops counting down", async ({ page }) => {
  const { card, review, run } = await summaryCard(page);
  await expect(review.fileWrite()).toHaveAttribute("data-kind", "new");
  await expect(card.getByTestId("file-write-path")).toHaveText("summary.md");
  await expect(card.getByTestId("file-write-kind")).toHaveText("new file");
  // Rendered, not escaped JSON: the title is a heading, the points are list items.
  await expect(review.rendered()).toHaveAttribute("data-format", "markdown");
  await expect(review.rendered().getByRole("heading", { name: "Summary of notes.md" })).toBeVisible();
  await expect(review.rendered().locator("li").first()).toBeVisible();
  await expect(review.rendered()).not.toContainText("\\n");
  // The line diff of a new file: only additions, numbered from 1.
  await expect(review.lineDiff()).toHaveAttribute("data-removed", "0");
  const added = await review.diffLines("add");
  expect(added[0]).toBe("# Summary of notes.md");
  await expect(review.lineDiff()).toHaveAttribute("data-added", String(added.length));
  expect(await review.diffLines("del")).toEqual([]);
  // The exact arguments stay one click away.
  await card.getByText("Exact arguments (JSON)").click();
  await expect(card.getByTestId("approval-args")).toContainText('"path": "summary.md"');
  await expect(card.getByTestId("approval-expiry")).toHaveText(/^expires in \d+:\d\d$/);

  await card.getByTestId("approve").click();
  await run.waitForStatus("completed");
  await expect(card).toHaveAttribute("data-status", "consumed");
  await expect(card.getByTestId("approval-expiry")).toHaveCount(0);
  // A decided card keeps the content but no longer compares with the file, which has moved on.
  await expect(review.rendered().getByRole("heading", { name: "Summary of notes.md" })).toBeVisible();
  await expect(review.lineDiff()).toHaveCount(0);
});

test("a change to an existing file: removed and added lines against the file as it is now, in the run view and in the inbox", async ({ page }) => {
  const { card, review, threadId } = await summaryCard(page, "Summarize notes.md into README.md");
  await expect(review.fileWrite()).toHaveAttribute("data-kind", "change");
  await expect(card.getByTestId("file-write-kind")).toContainText("changes the file");
  const removed = await review.diffLines("del");
  expect(removed[0]).toBe(README_FIRST);
  expect(await review.diffLines("add")).toContain("# Summary of notes.md");
  await expect(review.lineDiff()).not.toHaveAttribute("data-removed", "0");

  // The preview comes from the server with the approval's access rules.
  const approvalId = (await card.getAttribute("data-approval-id")) ?? "";
  const res = await page.request.get(`/api/approvals/${approvalId}/preview`);
  expect(res.status()).toBe(200);
  const preview = (await res.json()) as { file: { path: string; current: { state: string; content: string } } };
  expect(preview.file.path).toBe("README.md");
  expect(preview.file.current.state).toBe("text");
  expect(preview.file.current.content.startsWith(README_FIRST)).toBe(true);
  expect((await page.request.get("/api/approvals/apv_nosuchapproval0000/preview")).status()).toBe(404);

  // The inbox card shows the same view.
  const inbox = new InboxPage(page);
  await inbox.open();
  const item = new ApprovalReview(inbox.itemOf(threadId));
  await expect(item.fileWrite()).toHaveAttribute("data-kind", "change");
  expect((await item.diffLines("del"))[0]).toBe(README_FIRST);
  await expect(item.rendered().getByRole("heading", { name: "Summary of notes.md" })).toBeVisible();
});

test("Edit is a form from the tool's input schema: change the content field, approve, and the file holds the edit", async ({ page }) => {
  const { card, review, run } = await summaryCard(page);
  await review.openForm();
  await expect(review.field("path")).toHaveAttribute("data-kind", "text");
  await expect(review.field("path")).toHaveValue("summary.md");
  await expect(review.field("content")).toHaveAttribute("data-kind", "textarea");
  await expect(review.field("content")).toHaveValue(/^# Summary of notes\.md\n/);
  await expect(card.getByLabel(/^path/)).toBeVisible();

  // Raw HTML in Markdown is shown as text, never rendered; images are named, never loaded.
  const preview = card.getByTestId("edit-file-write");
  await review.field("content").fill('# Raw HTML\n\n<b>bold</b> <img src="x" onerror="window.__pwned = 1">\n\n![chart](https://example.com/chart.png)\n');
  await expect(review.rendered(preview)).toContainText("<b>bold</b>");
  await expect(review.rendered(preview)).toContainText("[image: chart (https://example.com/chart.png)]");
  await expect(review.rendered(preview).locator("b, img")).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

  const edited = "# Summary for the managers\n\n- Ship 0.2 on Friday 24 April 2026.\n";
  await review.field("content").fill(edited);
  await expect(card.locator('[data-testid="edit-diff"] li[data-path="content"]')).toHaveAttribute("data-kind", "changed");
  await expect(card.getByTestId("edit-diff").locator("li")).toHaveCount(1);
  // The edit's own preview: its content rendered and its lines against the file now (a new file).
  await expect(review.rendered(preview).getByRole("heading", { name: "Summary for the managers" })).toBeVisible();
  expect(await review.diffLines("add", preview)).toEqual(["# Summary for the managers", "", "- Ship 0.2 on Friday 24 April 2026."]);

  // Validation errors name the field, and block the submit.
  await review.field("path").fill("");
  await expect(card.getByTestId("edit-field-error-path")).toHaveText("path: must not be empty");
  await expect(review.field("path")).toHaveAttribute("aria-invalid", "true");
  await expect(card.getByTestId("edit-error")).toHaveText("path: must not be empty");
  await expect(card.getByTestId("edit-submit")).toBeDisabled();
  await review.field("path").fill("summary.md");
  await expect(card.getByTestId("edit-error")).toHaveCount(0);

  // Raw JSON stays as an option, and carries the edit over (and back).
  await card.getByTestId("edit-mode-json").click();
  const json = JSON.parse(await card.getByTestId("edit-args").inputValue()) as Record<string, unknown>;
  expect(json).toEqual({ content: edited, path: "summary.md" });
  await card.getByTestId("edit-mode-form").click();
  await expect(review.field("content")).toHaveValue(edited);

  const approvalId = (await card.getAttribute("data-approval-id")) ?? "";
  await card.getByTestId("edit-submit").click();
  await run.waitForStatus("completed");
  expect(await run.openWorkspaceFile("summary.md")).toBe(edited);
  // The decided approval's page shows the write that ran, rendered.
  await page.goto(`/approvals/${approvalId}`);
  await expect(page.getByTestId("detail-outcome")).toHaveAttribute("data-decision", "edit");
  await expect(page.getByTestId("detail-file-write").getByRole("heading", { name: "Summary for the managers" })).toBeVisible();
});

test("direct loads of a run view with a pending approval, the inbox and the detail page log no errors", async ({ page }) => {
  const { card, threadId } = await summaryCard(page);
  const approvalId = (await card.getAttribute("data-approval-id")) ?? "";
  const errors = collectPageErrors(page);

  await page.goto(`/threads/${threadId}`);
  const reloaded = new RunPage(page).approvalCard();
  await expect(reloaded).toHaveAttribute("data-status", "pending");
  await expect(reloaded.getByTestId("approval-expiry")).toHaveText(/^expires in \d+:\d\d$/);
  await expect(new ApprovalReview(reloaded).lineDiff()).toHaveAttribute("data-state", "diff");

  const inbox = new InboxPage(page);
  await inbox.open();
  await expect(inbox.itemOf(threadId).getByTestId("approval-expiry")).toHaveText(/^expires in \d+:\d\d$/);
  await expect(inbox.itemOf(threadId).getByTestId("inbox-requested-by")).toBeVisible();
  await expect(new ApprovalReview(inbox.itemOf(threadId)).lineDiff()).toHaveAttribute("data-state", "diff");

  await page.goto(`/approvals/${approvalId}`);
  await expect(page.getByTestId("approval-expiry")).toHaveText(/^expires in \d+:\d\d$/);
  // Let late errors (hydration, effects) arrive.
  await page.waitForTimeout(500);
  expect(errors).toEqual([]);
});
