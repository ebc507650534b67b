import type { Browser, Page, Route } from "@playwright/test";
import { expect, test } from "./fixtures";
import { InboxPage, runUntilApproval } from "./pages/approvals";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";
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

test("a page loaded while a run is under way shows its end, even when the run ends before the page asks to follow it", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const flows = new FlowsPage(page);
  await flows.newFromTemplate();
  const flowId = new URL(page.url()).pathname.split("/").at(-1);
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  // The page's follow request waits until the run has ended: the follow finds the run over.
  let held: Route | null = null;
  await page.route(/\/api\/threads\/[^/]+\/stream(\?|$)/, (route) => {
    if (route.request().method() !== "GET" || held) return route.continue();
    held = route;
  });
  // The page must be rendered while the run is under way (it then follows it); a run that ended
  // before the render shows its end without following: try again with a new thread.
  for (let attempt = 1; ; attempt++) {
    const created = await page.request.post("/api/threads", { data: { flowId, task: "hello" } });
    expect(created.status()).toBe(201);
    const { threadId } = (await created.json()) as { threadId: string };
    // Accepted once the headers arrive; the body follows the run to its end.
    const started = await fetch(`${baseURL}/api/threads/${threadId}/stream`, {
      method: "POST",
      headers: { cookie, origin: baseURL ?? "", "content-type": "application/json" },
      body: JSON.stringify({ input: { kind: "message", text: "hello" } }),
    });
    expect(started.status).toBe(200);
    await page.goto(`/threads/${threadId}`);
    const run = new RunPage(page);
    // Rendered while the run was under way, the page asks to follow it (held); rendered after, it shows its end.
    let seen = "";
    await expect
      .poll(async () => {
        seen = held ? "follow" : ((await run.status().getAttribute("data-status")) ?? "");
        return seen === "follow" || seen === "completed";
      })
      .toBe(true);
    await started.text();
    if (seen !== "follow") {
      expect(attempt).toBeLessThan(5);
      continue;
    }
    await (held as Route | null)?.continue();
    await run.waitForStatus("completed");
    await expect(page.getByTestId("final-answer").last()).toBeVisible();
    return;
  }
});
