import type { Browser, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { ApprovalDetail, InboxPage, NavBadge, runUntilApproval } from "./pages/approvals";
import { DEMO, RunPage, SignInPage } from "./pages/app";
import { APPROVER, VIEWER } from "./pages/members";

/**
 * The approval inbox: every approval the user may decide across flows, with
 * risk, rule and the exact arguments; a detail view whose edit shows an argument diff and
 * the new canonical hash; a list and a navigation badge that follow changes live; filters
 * with their empty states; the five decisions from the run view's card; and roles (a
 * viewer sees, an approver decides). Counts are read before each test acts: the e2e
 * database is shared by the specs.
 */

/** Signs `email` in, in a fresh browser context, and returns its page. */
async function signedInPage(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await new SignInPage(page).signInAndWait(who.email, who.password);
  return page;
}

test.beforeEach(async ({ page }) => {
  await new SignInPage(page).signInAndWait();
});

test("edit from the detail view: risk and rule shown, the diff names the path, the run writes edited.md", async ({ page }) => {
  const nav = new NavBadge(page);
  const before = await nav.count();
  const { threadId } = await runUntilApproval(page);
  await nav.expectCount(before + 1);

  await page.getByTestId("nav-approvals").click();
  const inbox = new InboxPage(page);
  await inbox.waitLive();
  const item = inbox.itemOf(threadId);
  await expect(item).toHaveAttribute("data-risk", "medium");
  await expect(item.getByTestId("approval-risk")).toHaveText("medium");
  await expect(item.getByTestId("approval-rule")).toContainText("write_file");
  await expect(item.getByTestId("approval-args")).toContainText('"path": "summary.md"');
  await expect(item.getByTestId("inbox-requested-by")).toHaveText(DEMO.email);
  await item.getByTestId("inbox-detail-link").click();
  await page.waitForURL(/\/approvals\/apv_/);

  await expect(page.getByTestId("detail-status")).toHaveText("pending");
  await expect(page.getByTestId("detail-risk")).toHaveText("medium");
  await expect(page.getByTestId("detail-rule")).toContainText("write_file");
  const originalHash = (await page.getByTestId("detail-args-hash").textContent()) ?? "";
  expect(originalHash).toMatch(/^[0-9a-f]{64}$/);

  const detail = new ApprovalDetail(page);
  await detail.editArgs((args) => ({ ...args, path: "edited.md" }));
  await expect(page.getByTestId("edit-diff").locator("li")).toHaveCount(1);
  await expect(detail.diffLine("path")).toHaveAttribute("data-kind", "changed");
  await expect(detail.diffLine("path")).toContainText('"summary.md" → "edited.md"');
  await expect(page.getByTestId("edit-hash")).toHaveText(/^[0-9a-f]{16}…$/);
  const preview = ((await page.getByTestId("edit-hash").textContent()) ?? "").replace("…", "");
  expect(originalHash.startsWith(preview)).toBe(false);
  // Invalid JSON is caught as you type and cannot be submitted.
  const edited = await page.getByTestId("edit-args").inputValue();
  await page.getByTestId("edit-args").fill('{"path": ');
  await expect(page.getByTestId("edit-error")).toContainText("Not valid JSON");
  await expect(page.getByTestId("edit-submit")).toBeDisabled();
  await page.getByTestId("edit-args").fill(edited);
  await expect(detail.diffLine("path")).toContainText('"edited.md"');
  await page.getByTestId("edit-submit").click();

  // The run resumed with the edit; the page now shows the outcome, both hashes and the diff.
  await expect(page.getByTestId("detail-outcome")).toHaveAttribute("data-decision", "edit", { timeout: 30_000 });
  await expect(page.getByTestId("detail-decided-by")).toHaveText(DEMO.email);
  await expect(page.getByTestId("original-hash")).toHaveText(originalHash);
  // The server's canonical hash of the edit is the one the browser showed before submitting.
  await expect(page.getByTestId("edited-hash")).toHaveText(new RegExp(`^${preview}[0-9a-f]{48}$`));
  await expect(detail.diffLine("path", "decided-diff")).toContainText('"edited.md"');
  await nav.expectCount(before);

  await page.getByTestId("detail-thread").getByRole("link").click();
  const run = new RunPage(page);
  await run.waitForStatus("completed");
  expect(await run.openWorkspaceFile("edited.md")).toContain("# Summary of notes.md");
  await expect(page.getByTestId("ws-file-summary.md")).toHaveCount(0);
});

test("live: an approval appears in an open inbox and in the badge, and leaves both when decided in another tab", async ({ page, context }) => {
  const inbox = new InboxPage(page);
  await inbox.open();
  const nav = new NavBadge(page);
  const before = await nav.count();
  await page.evaluate(() => {
    (window as unknown as { __sameDocument?: boolean }).__sameDocument = true;
  });

  const other = await context.newPage();
  const { threadId } = await runUntilApproval(other);
  await expect(inbox.itemOf(threadId)).toBeVisible({ timeout: 15_000 });
  await expect(inbox.itemOf(threadId).getByTestId("approval-args")).toContainText('"path": "summary.md"');
  await nav.expectCount(before + 1);

  const run = new RunPage(other);
  await run.approvalCard().getByTestId("approve").click();
  await run.waitForStatus("completed");
  await expect(inbox.itemOf(threadId)).toHaveCount(0, { timeout: 15_000 });
  await nav.expectCount(before);
  // Nothing reloaded the first tab: the same document got every change.
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

test("filters: flow, risk and status narrow the list; each empty state says what to do; bad values are 422", async ({ page }) => {
  const { flowId, threadId } = await runUntilApproval(page);
  const inbox = new InboxPage(page);
  await inbox.open();
  await expect(inbox.itemOf(threadId)).toBeVisible();

  await inbox.filter("flow", flowId);
  await expect(page.locator('[data-testid^="inbox-item-"]')).toHaveCount(1);
  await expect(inbox.itemOf(threadId)).toBeVisible();

  await inbox.filter("risk", "critical");
  await expect(inbox.itemOf(threadId)).toHaveCount(0);
  await expect(inbox.empty()).toContainText("No pending approvals with risk critical in flow Workspace assistant");
  await expect(inbox.empty()).toContainText("“Any risk”");

  await inbox.filter("risk", "medium");
  await expect(inbox.itemOf(threadId)).toBeVisible();

  await inbox.filter("status", "expired");
  await expect(inbox.empty()).toContainText("No expired approvals with risk medium");
  await expect(inbox.empty()).toContainText("expires when nobody decides in time");

  await inbox.filter("status", "all");
  await expect(inbox.itemOf(threadId)).toHaveAttribute("data-status", "pending");
  // The filters live in the URL: a reload keeps them.
  await page.reload();
  await expect(page.getByTestId("inbox-filter-status")).toHaveValue("all");
  await expect(page.getByTestId("inbox-filter-risk")).toHaveValue("medium");
  await expect(page.getByTestId("inbox-filter-flow")).toHaveValue(flowId);

  // Rejected from the list under "all": it stays, with its outcome.
  await inbox.itemOf(threadId).getByTestId("reject-reason").fill("not now");
  await inbox.itemOf(threadId).getByTestId("reject").click();
  await expect(inbox.itemOf(threadId)).toHaveAttribute("data-status", "rejected", { timeout: 30_000 });
  await expect(inbox.itemOf(threadId).getByTestId("inbox-decided")).toContainText("not now");
  await inbox.filter("status", "pending");
  await expect(inbox.empty()).toContainText("No pending approvals with risk medium in flow Workspace assistant");

  // The API takes the same filters; bad values are a 422 that names the field.
  const bad = await page.request.get("/api/approvals?risk=extreme");
  expect(bad.status()).toBe(422);
  expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/^risk: /);
  const res = await page.request.get(`/api/approvals?flowId=${flowId}&status=rejected`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { items: { threadId: string; decision: string; token: string | null }[]; flows: { id: string }[] };
  expect(body.items.map((i) => [i.threadId, i.decision, i.token])).toEqual([[threadId, "reject", null]]);
  expect(body.flows.map((f) => f.id)).toContain(flowId);
});

test("respond from the run view card: the write does not run, the agent gets the feedback, and the run ends incomplete saying so (docs/runs.md)", async ({ page }) => {
  await runUntilApproval(page);
  const run = new RunPage(page);
  const card = run.approvalCard();
  await card.getByTestId("respond").click();
  await expect(card.getByTestId("respond-submit")).toBeDisabled();
  await card.getByTestId("respond-text").fill("Do not write a file; give me the summary in the chat.");
  await card.getByTestId("respond-submit").click();
  await run.waitForStatus("incomplete");
  await expect(run.approvalCard()).toHaveAttribute("data-status", "rejected");
  await expect(run.approvalCard().getByTestId("approval-decision")).toHaveAttribute("data-decision", "respond");
  const write = page.locator('[data-testid="tool-call"][data-tool="write_file"]');
  await expect(write).toHaveAttribute("data-status", "rejected");
  // The agent got the feedback as the call's result.
  await write.getByText(/^output/).click();
  await expect(write).toContainText("Do not write a file");
  await expect(page.getByTestId("ws-file-notes.md")).toBeVisible();
  await expect(page.getByTestId("ws-file-summary.md")).toHaveCount(0);
});

test("ignore from the run view card: after a confirmation the run ends as cancelled and nothing is written", async ({ page }) => {
  await runUntilApproval(page);
  const run = new RunPage(page);
  const card = run.approvalCard();
  await card.getByTestId("ignore").click();
  await expect(card.getByTestId("ignore-confirm")).toBeVisible();
  await card.getByTestId("ignore-confirm").click();
  await run.waitForStatus("cancelled");
  await expect(page.getByTestId("run-cancelled")).toBeVisible();
  await expect(card.getByTestId("approve")).toHaveCount(0);
  await expect(page.getByTestId("ws-file-summary.md")).toHaveCount(0);
  // A reload shows the same: the run is cancelled, the card ignored.
  await page.reload();
  await run.waitForStatus("cancelled");
  await expect(run.approvalCard().getByTestId("approval-decision")).toHaveAttribute("data-decision", "ignore");
});

test("roles: a viewer sees the approval without a token or buttons; an approver decides it from the inbox", async ({ page, browser }) => {
  const { threadId } = await runUntilApproval(page);

  const viewer = await signedInPage(browser, VIEWER);
  const viewerInbox = new InboxPage(viewer);
  await viewerInbox.open();
  const seen = viewerInbox.itemOf(threadId);
  await expect(seen.getByTestId("approval-args")).toContainText('"path": "summary.md"');
  await expect(seen.getByTestId("cannot-decide")).toBeVisible();
  await expect(seen.getByTestId("approve")).toBeDisabled();
  await expect(seen.getByTestId("reject")).toBeDisabled();
  const listed = (await (await viewer.request.get("/api/approvals")).json()) as { items: { threadId: string; token: string | null; canDecide: boolean }[] };
  expect(listed.items.filter((i) => i.threadId === threadId).map((i) => [i.token, i.canDecide])).toEqual([[null, false]]);
  await viewer.goto(`/threads/${threadId}`);
  await expect(viewer.getByTestId("composer-readonly")).toContainText(DEMO.email);
  await expect(viewer.getByTestId("approve")).toBeDisabled();

  const approver = await signedInPage(browser, APPROVER);
  const approverInbox = new InboxPage(approver);
  await approverInbox.open();
  await approverInbox.itemOf(threadId).getByTestId("approve").click();
  await expect(approverInbox.itemOf(threadId)).toHaveCount(0, { timeout: 30_000 });

  await page.reload();
  await new RunPage(page).waitForStatus("completed");
  expect(await new RunPage(page).openWorkspaceFile("summary.md")).toContain("# Summary of notes.md");
  await viewer.context().close();
  await approver.context().close();
});
