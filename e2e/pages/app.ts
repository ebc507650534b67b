import { expect, type Locator, type Page } from "@playwright/test";

/** Demo account seeded by the web server command (prisma/seed.ts). */
export const DEMO = { email: "demo@phylactery.dev", password: "phylactery" };

/** Page object: sign-in. */
export class SignInPage {
  constructor(readonly page: Page) {}

  async signIn(email = DEMO.email, password = DEMO.password): Promise<void> {
    await this.page.goto("/sign-in");
    await this.page.getByTestId("sign-in-email").fill(email);
    await this.page.getByTestId("sign-in-password").fill(password);
    await this.page.getByTestId("sign-in-submit").click();
  }

  /** Signs in and waits for the flows page. */
  async signInAndWait(email = DEMO.email, password = DEMO.password): Promise<void> {
    await this.signIn(email, password);
    await this.page.waitForURL(/\/flows$/);
  }
}

/** Page object: the flows dashboard and the editor. */
export class FlowsPage {
  constructor(readonly page: Page) {}

  async openFlow(name: string): Promise<void> {
    await this.page.goto("/flows");
    await this.page.getByRole("link", { name }).first().click();
    await expect(this.page.getByTestId("editor-toolbar")).toBeVisible();
  }

  /** Creates a private copy of a template and opens it in the editor; tests edit only their copy. */
  async newFromTemplate(template = "workspace-assistant"): Promise<void> {
    await this.page.goto("/flows");
    await this.createFlow(template);
  }

  /** On the flows page: opens the "New flow" dialog (one button; the templates are in its menu). */
  async openNewFlow(): Promise<Locator> {
    await this.page.getByTestId("new-flow").click();
    const dialog = this.page.getByTestId("new-flow-dialog");
    await expect(dialog).toBeVisible();
    return dialog;
  }

  /**
   * On the flows page: opens the "New flow" dialog, picks `template` in its "Start from"
   * menu, names the flow (the template's own name unless `name` is given), sets the
   * description when given, creates it and waits for its editor.
   */
  async createFlow(template: string, name?: string, description?: string): Promise<void> {
    const dialog = await this.openNewFlow();
    await dialog.getByTestId("new-flow-template").selectOption(template);
    const label = (await dialog.getByTestId("new-flow-template").locator("option:checked").textContent()) ?? template;
    await dialog.getByTestId("new-flow-name").fill(name ?? label);
    if (description !== undefined) await dialog.getByTestId("new-flow-description").fill(description);
    await dialog.getByTestId("new-flow-create").click();
    await this.page.waitForURL(/\/flows\/[^/]+$/);
    await expect(this.page.getByTestId("editor-toolbar")).toBeVisible();
  }

  async startRun(task: string): Promise<void> {
    await this.page.getByTestId("run-task").first().fill(task);
    await this.page.getByTestId("run-start").first().click();
    await this.page.waitForURL(/\/threads\//);
  }
}

/** Page object: a thread's run view. */
export class RunPage {
  constructor(readonly page: Page) {}

  status() {
    return this.page.getByTestId("run-status");
  }
  approvalCard() {
    return this.page.getByTestId("approval-card").last();
  }
  /** Waits for a run status: a status name ("awaiting approval" or "awaiting_approval", "ready to continue") or a pattern of its label. */
  async waitForStatus(text: string | RegExp, timeout = 30_000): Promise<void> {
    if (text instanceof RegExp) await expect(this.status()).toHaveText(text, { timeout });
    else await expect(this.status()).toHaveAttribute("data-status", text === "ready to continue" ? "ready" : text.replaceAll(" ", "_"), { timeout });
  }
  /** Uploads files with the workspace panel's picker and waits for the panel to say they are in. */
  async uploadFiles(files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
    await this.page.getByTestId("ws-upload-input").setInputFiles(files);
    await expect(this.page.getByTestId("ws-upload-done")).toContainText(files[files.length - 1]?.name ?? "");
  }
  /** Sends a message from the run view's composer (a new run on the thread). */
  async send(text: string): Promise<void> {
    await this.page.getByTestId("composer-input").fill(text);
    await this.page.getByTestId("composer-send").click();
  }
  async openWorkspaceFile(name: string): Promise<string> {
    await this.page.getByTestId(`ws-file-${name}`).click();
    const content = this.page.getByTestId("ws-file-content");
    await expect(content).toBeVisible();
    return (await content.textContent()) ?? "";
  }
}
