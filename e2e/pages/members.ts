import { expect, type Locator, type Page } from "@playwright/test";
import { DEMO } from "./app";

/** Accounts the seed puts into "Demo workspace" (prisma/seed.ts: one account per role); same password as the demo account. */
export const APPROVER = { email: "approver@phylactery.dev", password: DEMO.password };
export const VIEWER = { email: "viewer@phylactery.dev", password: DEMO.password };

/** Page object: the "Workspaces and members" section of Settings. */
export class MembersPage {
  constructor(readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.getByRole("link", { name: "Settings" }).click();
    await expect(this.page.getByRole("heading", { name: "Workspaces and members" })).toBeVisible();
  }

  /** One workspace's card, found by its name. */
  workspace(name: string): Locator {
    return this.page.locator('section[data-testid^="members-"]').filter({ has: this.page.getByRole("heading", { name }) });
  }

  /** The workspace id of the card named `name` (from its `members-<id>` test id). */
  async workspaceId(name: string): Promise<string> {
    const testId = (await this.workspace(name).getAttribute("data-testid")) ?? "";
    return testId.replace(/^members-/, "");
  }

  row(ws: Locator, email: string): Locator {
    return ws.getByTestId(`member-row-${email}`);
  }

  role(ws: Locator, email: string): Locator {
    return ws.getByTestId(`member-role-${email}`);
  }

  /** Invites an email with a role through the card's form. */
  async invite(ws: Locator, email: string, role: string): Promise<void> {
    await ws.getByTestId("member-add-email").fill(email);
    await ws.getByTestId("member-add-role").selectOption(role);
    await ws.getByTestId("member-add-submit").click();
    await expect(ws.getByTestId("member-add-email")).toHaveValue("");
  }

  /** Picks a role in the member's menu and waits for the list to show it. */
  async setRole(ws: Locator, email: string, role: string): Promise<void> {
    await this.role(ws, email).selectOption(role);
    await expect(this.role(ws, email)).toHaveValue(role);
  }
}
