import { expect, type Locator, type Page } from "@playwright/test";

/** Page object: the "API keys" section of Settings. */
export class ApiKeysPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByRole("link", { name: "Settings" }).click();
    await expect(this.page.getByRole("heading", { name: "API keys" })).toBeVisible();
  }

  get section(): Locator {
    return this.page.getByTestId("api-keys");
  }

  row(name: string): Locator {
    return this.section.getByTestId(`api-key-row-${name}`);
  }

  /** Makes a key named `name` reaching `reach` (the select's label) and returns the key shown once. */
  async create(name: string, reach = "All my workspaces"): Promise<string> {
    await this.section.getByTestId("api-key-name").fill(name);
    await this.section.getByTestId("api-key-workspace").selectOption({ label: reach });
    await this.section.getByTestId("api-key-create").click();
    const field = this.section.getByTestId("api-key-value");
    await expect(field).toHaveValue(/^phy_[A-Za-z0-9_-]{43}$/);
    return field.inputValue();
  }

  /** Revokes the key named `name`, confirming. */
  async revoke(name: string): Promise<void> {
    await this.row(name).getByTestId(`api-key-revoke-${name}`).click();
    await this.row(name).getByTestId(`api-key-revoke-confirm-${name}`).click();
    await expect(this.row(name).getByTestId(`api-key-revoked-${name}`)).toBeVisible();
  }
}
