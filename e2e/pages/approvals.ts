import { expect, type Locator, type Page } from "@playwright/test";
import { FlowsPage, RunPage } from "./app";

/** The summary task of the Workspace assistant (README): reads notes.md, asks to write. */
export const SUMMARY_TASK = "Summarize notes.md into summary.md";

/**
 * Creates a private copy of the Workspace assistant, runs `task` and waits until the run
 * stops at the approval gate.
 * @returns the new flow's and thread's ids.
 */
export async function runUntilApproval(page: Page, task = SUMMARY_TASK): Promise<{ flowId: string; threadId: string }> {
  const flows = new FlowsPage(page);
  await flows.newFromTemplate();
  const flowId = page.url().split("/flows/")[1] ?? "";
  await flows.startRun(task);
  await new RunPage(page).waitForStatus("awaiting approval");
  const threadId = page.url().split("/threads/")[1]?.split(/[?#]/)[0] ?? "";
  expect(flowId).not.toBe("");
  expect(threadId).not.toBe("");
  return { flowId, threadId };
}

/** Page object: the navigation's approvals link and its live badge. */
export class NavBadge {
  constructor(readonly page: Page) {}

  badge(): Locator {
    return this.page.getByTestId("approvals-badge");
  }

  /** The number on the badge, 0 when it is not shown. */
  async count(): Promise<number> {
    if ((await this.badge().count()) === 0) return 0;
    return Number(await this.badge().textContent());
  }

  /** Waits until the badge shows `n` (hidden for 0). */
  async expectCount(n: number, timeout = 15_000): Promise<void> {
    if (n === 0) await expect(this.badge()).toHaveCount(0, { timeout });
    else await expect(this.badge()).toHaveText(String(n), { timeout });
  }
}

/** Page object: the approval inbox (`/approvals`). */
export class InboxPage {
  constructor(readonly page: Page) {}

  /** Opens the inbox (optionally with a query string) and waits for its live subscription. */
  async open(query = ""): Promise<void> {
    await this.page.goto(`/approvals${query}`);
    await this.waitLive();
  }

  /** Waits until the page's live stream of approval changes has connected. */
  async waitLive(): Promise<void> {
    await expect(this.page.getByTestId("live-refresh")).toHaveAttribute("data-connected", "true");
  }

  /** The inbox item of a thread's approval. */
  itemOf(threadId: string): Locator {
    return this.page.locator('[data-testid^="inbox-item-"]').filter({ has: this.page.locator(`a[href="/threads/${threadId}"]`) });
  }

  empty(): Locator {
    return this.page.getByTestId("inbox-empty");
  }

  /** Picks a filter value and waits for the URL to carry it (or to drop it, for the default). */
  async filter(which: "flow" | "risk" | "status", value: string): Promise<void> {
    await this.page.getByTestId(`inbox-filter-${which}`).selectOption(value);
    const key = which === "flow" ? "flowId" : which;
    const isDefault = value === "" || (which === "status" && value === "pending");
    await this.page.waitForURL((url) => (isDefault ? !url.searchParams.has(key) : url.searchParams.get(key) === value));
    await expect(this.page.getByTestId(`inbox-filter-${which}`)).toHaveValue(value);
  }
}

/** Page object: one approval's detail page and its decision panel. */
export class ApprovalDetail {
  constructor(readonly page: Page) {}

  /** Opens Edit, switches to raw JSON, replaces the arguments with `change(current)` and checks it parses. */
  async editArgs(change: (args: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
    await this.page.getByTestId("edit").click();
    await this.page.getByTestId("edit-mode-json").click();
    const area = this.page.getByTestId("edit-args");
    await expect(area).toBeVisible();
    const current = JSON.parse(await area.inputValue()) as Record<string, unknown>;
    await area.fill(JSON.stringify(change(current), null, 2));
    await expect(this.page.getByTestId("edit-error")).toHaveCount(0);
  }

  /** The diff line of one argument path. */
  diffLine(path: string, testId = "edit-diff"): Locator {
    return this.page.getByTestId(testId).locator(`li[data-path="${path}"]`);
  }
}
