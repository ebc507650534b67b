import { expect, test } from "./fixtures";
import { DEMO, FlowsPage, SignInPage } from "./pages/app";
import { APPROVER, MembersPage } from "./pages/members";

/**
 * The instance admin and new accounts (docs/security.md "Roles and powers", "Membership"): the
 * demo account is the first account, hence the admin; it creates an account in Settings'
 * "Instance" section. The new person accepts an invitation to "Demo workspace" as owner, and
 * their new flow still goes to a workspace of their own unless they pick another; with two
 * workspaces, each flow names its workspace.
 */
const NEWCOMER = { email: "newcomer@phylactery.dev", name: "Newcomer", password: "a long enough password" };

test("the admin creates an account; its owner accepts an invitation and new flows go to their own workspace unless they pick another", async ({ page, browser, consoleErrors }) => {
  await new SignInPage(page).signInAndWait();
  const members = new MembersPage(page);
  await members.open();
  const instance = page.getByTestId("instance-admin");
  await expect(instance).toBeVisible();
  await expect(instance.getByTestId(`account-row-${DEMO.email}`)).toContainText("admin");
  await expect(instance.getByTestId(`account-row-${APPROVER.email}`)).not.toContainText("admin");

  // A weak password is refused, naming the rule; then the account is created.
  consoleErrors.allow(/status of 422 .*\/api\/admin\/users/);
  await instance.getByTestId("account-email").fill(NEWCOMER.email);
  await instance.getByTestId("account-name").fill(NEWCOMER.name);
  await instance.getByTestId("account-password").fill("too short");
  await instance.getByTestId("account-create").click();
  await expect(instance.getByTestId("account-error")).toContainText("12 characters");
  await instance.getByTestId("account-password").fill(NEWCOMER.password);
  await instance.getByTestId("account-create").click();
  await expect(instance.getByTestId("account-notice")).toContainText(`Account ${NEWCOMER.email} created`);
  await expect(instance.getByTestId(`account-row-${NEWCOMER.email}`)).toBeVisible();

  const ws = members.workspace("Demo workspace");
  await members.invite(ws, NEWCOMER.email, "owner");
  await expect(ws.getByTestId(`invitation-row-${NEWCOMER.email}`)).toBeVisible();

  // The newcomer signs in, sees the invitation and accepts it.
  const context = await browser.newContext();
  const them = await context.newPage();
  await new SignInPage(them).signInAndWait(NEWCOMER.email, NEWCOMER.password);
  await expect(them.getByTestId("new-flow-workspace")).toHaveCount(0);
  await them.getByTestId("invitations-notice-link").click();
  await them.getByTestId("my-invitation-Demo workspace").getByTestId("invitation-accept").click();
  await expect(them.getByTestId("my-invitations")).toHaveCount(0);
  await expect(them.getByTestId("instance-admin")).toHaveCount(0);

  // Owner of Demo workspace now, yet a new flow goes to a workspace of their own by default.
  await them.goto("/flows");
  const dialog = await new FlowsPage(them).openNewFlow();
  const picker = dialog.getByTestId("new-flow-workspace");
  await expect(picker).toBeVisible();
  await expect(picker.locator("option:checked")).toHaveText("Newcomer's workspace (new, yours)");
  await expect(dialog.getByTestId("new-flow-where")).toContainText("a new workspace of your own, “Newcomer's workspace”");
  await expect(picker.locator("option", { hasText: "Demo workspace" })).toHaveCount(1);
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await new FlowsPage(them).createFlow("workspace-assistant");
  const flowId = them.url().split("/").pop() ?? "";
  await them.goto("/flows");
  await expect(them.getByTestId(`flow-${flowId}`).getByTestId("flow-workspace")).toHaveText("Newcomer's workspace");
  await expect((await new FlowsPage(them).openNewFlow()).getByTestId("new-flow-workspace").locator("option:checked")).toHaveText("Newcomer's workspace (yours)");
  await them.getByTestId("new-flow-dialog").getByRole("button", { name: "Cancel" }).click();
  await expect(them.getByTestId("flow-workspace").filter({ hasText: "Demo workspace" }).first()).toBeVisible();
  await context.close();

  // The demo owner does not see the newcomer's flow; the newcomer leaves Demo workspace again.
  await page.goto("/flows");
  await expect(page.getByTestId(`flow-${flowId}`)).toHaveCount(0);
  await expect(page.getByTestId("flow-workspace")).toHaveCount(0);
  await members.open();
  await ws.getByTestId(`member-remove-${NEWCOMER.email}`).click();
  await ws.getByTestId(`member-remove-confirm-${NEWCOMER.email}`).click();
  await expect(members.row(ws, NEWCOMER.email)).toHaveCount(0);
});
