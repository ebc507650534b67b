import { expect, type Locator, type Page } from "@playwright/test";

/** Page object: a flow's version history (`/flows/{flowId}/versions`). */
export class VersionsPage {
  constructor(readonly page: Page) {}

  async open(flowId: string): Promise<void> {
    await this.page.goto(`/flows/${flowId}/versions`);
    await expect(this.list()).toBeVisible();
  }

  list(): Locator {
    return this.page.getByTestId("versions-list");
  }

  /** Every version's row, newest first. */
  rows(): Locator {
    return this.list().locator('tr[data-testid^="version-row-"]');
  }

  row(version: number): Locator {
    return this.page.getByTestId(`version-row-${version}`);
  }

  /** Picks `from` and `to` with the radio buttons, compares, and waits for the compare page. */
  async compare(from: number, to: number): Promise<void> {
    await this.page.getByTestId(`compare-from-${from}`).check();
    await this.page.getByTestId(`compare-to-${to}`).check();
    await this.page.getByTestId("compare-versions").click();
    await this.page.waitForURL((url) => url.pathname.endsWith("/versions/compare") && url.searchParams.get("from") === String(from) && url.searchParams.get("to") === String(to));
    await expect(this.page.getByTestId("compare-title")).toHaveText(`v${from} → v${to}`);
  }

  /** Restores a version as a new one and waits for the editor it opens. */
  async restore(version: number): Promise<void> {
    await this.row(version).getByTestId(`restore-version-${version}`).click();
    await this.page.waitForURL(/\/flows\/[^/]+$/);
  }

  /** Starts a run pinned on `version` from its row and waits for the run view. */
  async runVersion(version: number, task: string): Promise<void> {
    const form = this.page.getByTestId(`run-version-${version}`);
    await form.locator("summary").click();
    await form.getByTestId("run-task").fill(task);
    await expect(form.getByTestId("run-start")).toHaveText(`Run v${version}`);
    await form.getByTestId("run-start").click();
    await this.page.waitForURL(/\/threads\//);
  }
}

/** Page object: the compare page (`/flows/{flowId}/versions/compare?from=&to=`). */
export class ComparePage {
  constructor(readonly page: Page) {}

  /** A node on the diff canvas (its `data-change` says added/removed/changed/moved/unchanged). */
  node(id: string): Locator {
    return this.page.getByTestId(`diff-node-${id}`);
  }

  /** A node's entry in the list of changes. */
  item(id: string): Locator {
    return this.page.getByTestId(`diff-item-${id}`);
  }

  /** Every field change listed (`data.instructions: "old" → "new"`). */
  fields(): Locator {
    return this.page.getByTestId("diff-field");
  }

  field(path: string): Locator {
    return this.page.locator(`[data-testid="diff-field"][data-path="${path}"]`);
  }

  empty(): Locator {
    return this.page.getByTestId("diff-empty");
  }
}

/** The breadcrumb of a run view (`Flows / <flow> v<N> · audit trail`): it names the version the run ran. */
export function runBreadcrumb(page: Page): Locator {
  return page.locator("p", { has: page.getByTestId("audit-link") });
}
