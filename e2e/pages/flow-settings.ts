import { expect, type Locator, type Page } from "@playwright/test";

/** Page object: the editor's Flow settings dialog (name, limits, network allowlist, memory, library). */
export class FlowSettingsDialog {
  constructor(readonly page: Page) {}

  dialog(): Locator {
    return this.page.getByTestId("flow-settings-dialog");
  }
  hosts(): Locator {
    return this.page.getByTestId("settings-allow-hosts");
  }
  method(name: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE"): Locator {
    return this.page.getByTestId(`settings-method-${name}`);
  }
  /** "Mount the workspace library (read-only)": on by default (docs/library.md "Mounting"). */
  libraryMount(): Locator {
    return this.page.getByTestId("settings-library-mount");
  }
  error(field: string): Locator {
    return this.page.getByTestId(`settings-error-${field}`);
  }

  /** Opens the dialog from the toolbar button. */
  async open(): Promise<void> {
    await this.page.getByTestId("flow-settings").click();
    await expect(this.dialog()).toBeVisible();
  }

  /** Appends `host` as a new line of the allowlist. */
  async addHost(host: string): Promise<void> {
    const current = await this.hosts().inputValue();
    await this.hosts().fill(current.trim() === "" ? host : `${current.trimEnd()}\n${host}`);
  }

  async apply(): Promise<void> {
    await this.page.getByTestId("settings-apply").click();
  }
}
