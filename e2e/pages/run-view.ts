import { expect, type Locator, type Page } from "@playwright/test";

/** The thread id in a /threads/:id URL. */
export function threadIdOf(url: string): string {
  return url.split("/threads/")[1]?.split(/[?#/]/)[0] ?? "";
}

/**
 * Page object: a thread's run view and its Checkpoints tab (time travel): the
 * checkpoint list, the state at one checkpoint, "Fork from here" and a fork's banner.
 */
export class RunViewPage {
  constructor(readonly page: Page) {}

  status(): Locator {
    return this.page.getByTestId("run-status");
  }
  /** Waits for a run status: a status name ("awaiting approval" or "awaiting_approval", "ready to continue") or a pattern of its label. */
  async waitForStatus(text: string | RegExp, timeout = 30_000): Promise<void> {
    if (text instanceof RegExp) await expect(this.status()).toHaveText(text, { timeout });
    else await expect(this.status()).toHaveAttribute("data-status", text === "ready to continue" ? "ready" : text.replaceAll(" ", "_"), { timeout });
  }
  toolCall(tool: string): Locator {
    return this.page.locator(`[data-testid="tool-call"][data-tool="${tool}"]`).last();
  }

  panel(): Locator {
    return this.page.getByTestId("checkpoints-panel");
  }
  /** Every checkpoint row, in the order shown (newest first). */
  rows(): Locator {
    return this.panel().locator('tr[data-testid^="checkpoint-row-"]');
  }
  /** Opens the Checkpoints tab and waits for its rows. */
  async openCheckpoints(): Promise<void> {
    await this.page.getByTestId("tab-checkpoints").click();
    await expect(this.rows().first()).toBeVisible();
  }
  /** The steps of the listed checkpoints, in the order shown. */
  async steps(): Promise<number[]> {
    return (await this.rows().evaluateAll((rows) => rows.map((r) => r.getAttribute("data-step")))).map(Number);
  }
  /** The oldest listed checkpoint from which `node` runs next. */
  rowWhereNext(node: string): Locator {
    return this.panel().locator(`tr[data-next="${node}"]`).last();
  }
  /** Clicks a row and waits for the state at that checkpoint; returns the state section. */
  async openState(row: Locator): Promise<Locator> {
    const id = ((await row.getAttribute("data-testid")) ?? "").replace("checkpoint-row-", "");
    await row.getByTestId("checkpoint-open").click();
    const state = this.page.getByTestId("checkpoint-state");
    await expect(state).toHaveAttribute("data-checkpoint", id);
    return state;
  }
  /** Forks from the open state and waits for the new thread's page; returns its id. */
  async forkFromHere(): Promise<string> {
    const before = threadIdOf(this.page.url());
    await this.page.getByTestId("fork-from-checkpoint").click();
    await this.page.waitForURL((url) => url.pathname.startsWith("/threads/") && threadIdOf(url.href) !== before);
    await expect(this.forkedFrom()).toBeVisible();
    return threadIdOf(this.page.url());
  }
  forkedFrom(): Locator {
    return this.page.getByTestId("forked-from");
  }
}
