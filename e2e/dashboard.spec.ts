import { expect, test } from "./fixtures";
import { FlowsPage, SignInPage } from "./pages/app";
import { DashboardPage, startRunOn } from "./pages/dashboard";
import { VIEWER } from "./pages/members";

/**
 * The dashboard: runs with status, flow and version, steps, tokens and cost;
 * status chips, the flow filter and the search as shareable URL params; the empty state of
 * filters that match nothing. The e2e database is shared by every spec of a run, so the
 * assertions are about the two runs made here (unique words in their tasks), never totals.
 */
test("filter the runs by status, flow and words of the task", async ({ page, browser }) => {
  const tag = `d${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  const readTask = `Read notes.md and tell me what it says (${tag}-read)`;
  const summaryTask = `Summarize notes.md into summary.md (${tag}-sum)`;

  await new SignInPage(page).signInAndWait();
  await new FlowsPage(page).newFromTemplate();
  const flowId = page.url().split("/flows/")[1] ?? "";
  expect(flowId).not.toBe("");
  const done = await startRunOn(page, flowId, readTask, "completed");
  const waiting = await startRunOn(page, flowId, summaryTask, "awaiting approval");

  const dash = new DashboardPage(page);
  await dash.open();
  await expect(dash.row(done)).toBeVisible();
  await expect(dash.row(waiting)).toBeVisible();
  await expect(dash.cell(done, "status")).toHaveText("Completed");
  await expect(dash.cell(waiting, "status")).toHaveText("Awaiting approval");
  await expect(dash.cell(done, "flow")).toHaveText(/Workspace assistant\s+v1/);
  await expect(dash.cell(done, "started-by")).toHaveText("demo@phylactery.dev");
  await expect(dash.cell(done, "started")).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  await expect(dash.cell(done, "duration")).toHaveText(/^\d+ (s|m \d+ s)/);
  // One read step, done; the summary waits on its second step (the write).
  await expect(dash.cell(done, "steps")).toHaveText("1/1");
  await expect(dash.cell(waiting, "steps")).toHaveText("1/2");
  // The offline model reports tokens and is free.
  await expect(dash.cell(done, "tokens")).toHaveText(/^[1-9][\d,]* in \/ [1-9][\d,]* out$/);
  await expect(dash.cell(done, "cost")).toHaveText("$0.00");
  await expect(dash.cell(waiting, "cost")).toHaveText("$0.00");
  await expect(dash.totals()).toContainText(/\d+ runs?/);

  // Status chips: each shows only its runs, and the URL says so (a reload keeps it).
  await dash.filterStatus("awaiting_approval");
  await expect(dash.row(waiting)).toBeVisible();
  await expect(dash.row(done)).toHaveCount(0);
  await page.reload();
  await expect(dash.statusChip("awaiting_approval")).toHaveAttribute("aria-current", "page");
  await expect(dash.row(waiting)).toBeVisible();
  await expect(dash.row(done)).toHaveCount(0);

  await dash.filterStatus("completed");
  await expect(dash.row(done)).toBeVisible();
  await expect(dash.row(waiting)).toHaveCount(0);
  await expect(dash.statusChip("completed")).toContainText(/Completed\s+[1-9]\d*/);

  // The flow filter: this new flow has exactly the two runs made above.
  await dash.filterStatus("all");
  await dash.filterFlow(flowId);
  await expect(dash.rows()).toHaveCount(2);
  await expect(dash.statusChip("all")).toContainText(/All\s+2$/);
  await expect(dash.totals()).toContainText("2 runs");
  await expect(dash.totals()).toContainText("$0.00 estimated");

  // Search: a word only the first task has (case does not matter).
  await dash.filterFlow("");
  await dash.search(`${tag.toUpperCase()}-READ`);
  await expect(dash.row(done)).toBeVisible();
  await expect(dash.rows()).toHaveCount(1);
  await dash.search(tag);
  await expect(dash.rows()).toHaveCount(2);

  // Filters that match nothing: the empty state, and "Clear filters" brings the list back.
  await dash.search(`${tag}-nothing`);
  await expect(dash.emptyFiltered()).toBeVisible();
  await expect(dash.emptyFiltered()).toContainText("No runs match these filters");
  await expect(dash.rows()).toHaveCount(0);
  await dash.clearFilters();
  await expect(dash.emptyFiltered()).toHaveCount(0);
  await expect(dash.row(done)).toBeVisible();
  await expect(dash.row(waiting)).toBeVisible();
  await expect(page.getByTestId("dashboard-search")).toHaveValue("");

  // A viewer of the workspace watches the same runs, started by someone else (viewers see every run of their workspace).
  const viewerContext = await browser.newContext();
  const viewerDash = new DashboardPage(await viewerContext.newPage());
  await new SignInPage(viewerDash.page).signInAndWait(VIEWER.email, VIEWER.password);
  await viewerDash.open(`?q=${tag}`);
  await expect(viewerDash.rows()).toHaveCount(2);
  await expect(viewerDash.cell(waiting, "started-by")).toHaveText("demo@phylactery.dev");
  await viewerContext.close();

  // The task opens the run.
  await dash.row(waiting).getByTestId("thread-link").click();
  await expect(page).toHaveURL(new RegExp(`/threads/${waiting}$`));
});

test("a bad filter value is ignored with a note, not an error page", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  const dash = new DashboardPage(page);
  await dash.open("?status=bogus&flow=no-such-flow");
  await expect(dash.filterNote()).toContainText('Ignored status="bogus"');
  await expect(dash.filterNote()).toContainText('Ignored flow="no-such-flow"');
  await expect(page.getByTestId("dashboard-runs")).toBeVisible();
  await expect(page.getByTestId("dashboard-empty-filtered")).toHaveCount(0);
});
