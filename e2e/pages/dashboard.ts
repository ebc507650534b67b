import { expect, type Locator, type Page } from "@playwright/test";
import { FlowsPage, RunPage } from "./app";

/**
 * Opens a flow in the editor, starts a run of `task` there and waits until the run shows
 * `status` (e.g. "completed", "awaiting approval").
 * @returns the thread's id.
 */
export async function startRunOn(page: Page, flowId: string, task: string, status: string | RegExp): Promise<string> {
  await page.goto(`/flows/${flowId}`);
  await expect(page.getByTestId("editor-toolbar")).toBeVisible();
  await new FlowsPage(page).startRun(task);
  await new RunPage(page).waitForStatus(status);
  const threadId = page.url().split("/threads/")[1]?.split(/[?#]/)[0] ?? "";
  expect(threadId).not.toBe("");
  return threadId;
}

/** Page object: the dashboard's runs (`/flows`): filters, rows, totals and empty states. */
export class DashboardPage {
  constructor(readonly page: Page) {}

  /** Opens the dashboard, optionally with a query string ("?status=failed"). */
  async open(query = ""): Promise<void> {
    await this.page.goto(`/flows${query}`);
    await expect(this.page.getByRole("heading", { name: "Runs" })).toBeVisible();
  }

  row(threadId: string): Locator {
    return this.page.getByTestId(`thread-row-${threadId}`);
  }

  rows(): Locator {
    return this.page.locator('[data-testid^="thread-row-"]');
  }

  cell(threadId: string, name: "status" | "flow" | "started" | "duration" | "steps" | "tokens" | "cost" | "started-by"): Locator {
    return this.row(threadId).getByTestId(`thread-${name}`);
  }

  statusChip(status: string): Locator {
    return this.page.getByTestId(`dashboard-filter-status-${status}`);
  }

  /** Clicks a status chip ("all" for every status) and waits until it is the active one. */
  async filterStatus(status: string): Promise<void> {
    await this.statusChip(status).click();
    await expect(this.statusChip(status)).toHaveAttribute("aria-current", "page");
    await expect(this.page).toHaveURL(status === "all" ? /\/flows(\?(?!.*status=).*)?$/ : new RegExp(`[?&]status=${status}(&|$)`));
  }

  /** Picks a flow in the flow filter ("" for all flows). */
  async filterFlow(flowId: string): Promise<void> {
    await this.page.getByTestId("dashboard-flow-filter").selectOption(flowId);
    await expect(this.page).toHaveURL(flowId ? new RegExp(`[?&]flow=${flowId}(&|$)`) : /^(?!.*[?&]flow=)/);
  }

  /** Searches the tasks for `text` and waits for the URL to carry it. */
  async search(text: string): Promise<void> {
    await this.page.getByTestId("dashboard-search").fill(text);
    await this.page.getByTestId("dashboard-search").press("Enter");
    await expect(this.page).toHaveURL(new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, "(\\+|%20)")}(&|$)`));
  }

  emptyFiltered(): Locator {
    return this.page.getByTestId("dashboard-empty-filtered");
  }

  /** Follows "Clear filters" in the no-match empty state. */
  async clearFilters(): Promise<void> {
    await this.page.getByTestId("dashboard-clear-filters").click();
    await expect(this.page).toHaveURL(/\/flows$/);
  }

  totals(): Locator {
    return this.page.getByTestId("dashboard-totals");
  }

  filterNote(): Locator {
    return this.page.getByTestId("dashboard-filter-note");
  }
}
