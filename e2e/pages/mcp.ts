import { expect, type Locator, type Page } from "@playwright/test";

/** Page object: Settings → MCP servers. */
export class McpSettingsPage {
  constructor(readonly page: Page) {}

  /** Opens the page from Settings' link. */
  async open(): Promise<void> {
    await this.page.getByRole("link", { name: "Settings" }).click();
    await this.page.getByTestId("settings-mcp-link").click();
    await expect(this.page.getByRole("heading", { name: "MCP servers", level: 1 })).toBeVisible();
  }

  /** The section of the workspace named `name`. */
  workspace(name: string): Locator {
    return this.page.locator('section[data-testid^="mcp-workspace-"]').filter({ has: this.page.getByRole("heading", { name }) });
  }

  /** The workspace id of the section named `name`. */
  async workspaceId(name: string): Promise<string> {
    return ((await this.workspace(name).getAttribute("data-testid")) ?? "").replace(/^mcp-workspace-/, "");
  }

  server(ws: Locator, name: string): Locator {
    return ws.getByTestId(`mcp-server-${name}`);
  }

  /** Fills and submits the add form for a Streamable HTTP server. */
  async addHttp(ws: Locator, name: string, url: string, headers = ""): Promise<void> {
    await ws.getByTestId("mcp-add-transport-http").check();
    await ws.getByTestId("mcp-add-name").fill(name);
    await ws.getByTestId("mcp-add-url").fill(url);
    await ws.getByTestId("mcp-add-secrets").fill(headers);
    await ws.getByTestId("mcp-add-submit").click();
  }

  /** Fills and submits the add form for one of the operator's stdio commands, with a value per placeholder. */
  async addStdio(ws: Locator, name: string, command: string, values: Record<string, string> = {}): Promise<void> {
    await ws.getByTestId("mcp-add-transport-stdio").check();
    await ws.getByTestId("mcp-add-name").fill(name);
    await ws.getByTestId("mcp-add-command").selectOption(command);
    for (const [key, value] of Object.entries(values)) await ws.getByTestId(`mcp-add-value-${key}`).selectOption(value);
    await ws.getByTestId("mcp-add-submit").click();
  }

  fieldError(ws: Locator, field: string): Locator {
    return ws.getByTestId(`mcp-field-error-${field}`);
  }
}
