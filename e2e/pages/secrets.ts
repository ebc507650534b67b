import { expect, type Locator, type Page } from "@playwright/test";

/** Page object: the "Secrets" section of Settings (one card per workspace). */
export class SecretsPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/settings");
    await expect(this.page.getByRole("heading", { name: "Secrets", exact: true })).toBeVisible();
  }

  /** The card of the workspace named `name`. */
  workspace(name: string): Locator {
    return this.page.locator('section[data-testid^="secrets-"]').filter({ has: this.page.getByRole("heading", { name: `Secrets of ${name}` }) });
  }

  /** Fills the card's add form (fields left undefined stay as they are) and submits it. */
  async add(ws: Locator, fields: { name?: string; value?: string; hosts?: string }): Promise<void> {
    if (fields.name !== undefined) await ws.getByTestId("secret-add-name").fill(fields.name);
    if (fields.value !== undefined) await ws.getByTestId("secret-add-value").fill(fields.value);
    if (fields.hosts !== undefined) await ws.getByTestId("secret-add-hosts").fill(fields.hosts);
    await ws.getByTestId("secret-add-submit").click();
  }

  /** The list row of the secret named `name`. */
  row(ws: Locator, name: string): Locator {
    return ws.getByTestId(`secret-row-${name}`);
  }
}
