import { expect, type Locator, type Page } from "@playwright/test";

/** Page object: the "Webhooks" section of Settings (one card per workspace the user owns). */
export class WebhooksPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto("/settings");
    await expect(this.page.getByRole("heading", { name: "Webhooks", exact: true })).toBeVisible();
  }

  /** The card of the workspace named `name`. */
  workspace(name: string): Locator {
    return this.page.locator('section[data-testid^="webhooks-"]').filter({ has: this.page.getByRole("heading", { name: `Webhooks of ${name}` }) });
  }

  /** Adds a webhook through the card's form, with only `events` ticked. */
  async add(ws: Locator, url: string, events: readonly string[]): Promise<void> {
    await ws.getByTestId("webhook-add-url").fill(url);
    for (const box of await ws.locator('[data-testid^="webhook-add-event-"]').all()) {
      const name = ((await box.getAttribute("data-testid")) ?? "").replace("webhook-add-event-", "");
      await box.setChecked(events.includes(name));
    }
    await ws.getByTestId("webhook-add-submit").click();
  }

  /** The list row of the webhook with this URL. */
  row(ws: Locator, url: string): Locator {
    return ws.locator('tr[data-testid^="webhook-row-"]').filter({ hasText: url });
  }
}
