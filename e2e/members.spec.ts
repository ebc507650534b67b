import { expect, test } from "./fixtures";
import { DEMO, SignInPage } from "./pages/app";
import { APPROVER, MembersPage, VIEWER } from "./pages/members";

/**
 * Workspaces and members (docs/security.md "Roles and powers", "Membership") on the seeded
 * database: the demo account owns "Demo workspace" with a seeded approver and viewer; an owner
 * changes roles and invites people, who join only by accepting in their own Settings; a viewer
 * sees the members but cannot manage them, in the page or over the API.
 */
test("the owner changes the viewer to approver and back, removes the approver, who comes back only by accepting an invitation", async ({ page, browser, consoleErrors }) => {
  await new SignInPage(page).signInAndWait();
  const members = new MembersPage(page);
  await members.open();
  const ws = members.workspace("Demo workspace");
  await expect(ws).toBeVisible();
  await expect(members.role(ws, DEMO.email)).toHaveValue("owner");
  await expect(members.role(ws, APPROVER.email)).toHaveValue("approver");
  await expect(members.role(ws, VIEWER.email)).toHaveValue("viewer");
  await expect(ws.getByTestId("member-add-email")).toBeVisible();

  await members.setRole(ws, VIEWER.email, "approver");
  await page.reload();
  await expect(members.role(ws, VIEWER.email)).toHaveValue("approver");
  await members.setRole(ws, VIEWER.email, "viewer");
  await page.reload();
  await expect(members.role(ws, VIEWER.email)).toHaveValue("viewer");

  // Remove asks first; inviting the approver back makes no membership until they accept.
  await ws.getByTestId(`member-remove-${APPROVER.email}`).click();
  await ws.getByTestId(`member-remove-confirm-${APPROVER.email}`).click();
  await expect(members.row(ws, APPROVER.email)).toHaveCount(0);
  await members.invite(ws, APPROVER.email, "approver");
  await expect(ws.getByTestId("members-notice")).toContainText(`Invitation to ${APPROVER.email} as approver sent`);
  await expect(ws.getByTestId(`invitation-row-${APPROVER.email}`)).toContainText("pending");
  await expect(members.row(ws, APPROVER.email)).toHaveCount(0);

  // The approver sees the invitation (a notice on the flows page, the list in Settings) and accepts.
  const other = await browser.newContext();
  const approverPage = await other.newPage();
  await new SignInPage(approverPage).signInAndWait(APPROVER.email, APPROVER.password);
  await expect(approverPage.getByTestId("invitations-notice")).toContainText("Demo workspace");
  await expect(approverPage.getByTestId("nav-invitations")).toHaveText("1");
  await approverPage.getByTestId("invitations-notice-link").click();
  const invitation = approverPage.getByTestId("my-invitation-Demo workspace");
  await expect(invitation).toContainText("approver");
  await expect(invitation).toContainText(DEMO.email);
  await invitation.getByTestId("invitation-accept").click();
  await expect(approverPage.getByTestId("my-invitations")).toHaveCount(0);
  await expect(new MembersPage(approverPage).role(new MembersPage(approverPage).workspace("Demo workspace"), APPROVER.email)).toHaveText("approver");
  await other.close();

  await page.reload();
  await expect(members.role(ws, APPROVER.email)).toHaveValue("approver");
  await expect(ws.getByTestId(`invitation-row-${APPROVER.email}`)).toHaveCount(0);

  // An email without an account gets the very same answer; the owner may revoke it.
  await members.invite(ws, "nobody@phylactery.dev", "viewer");
  await expect(ws.getByTestId("members-notice")).toContainText("Invitation to nobody@phylactery.dev as viewer sent");
  await expect(ws.getByTestId("members-error")).toHaveCount(0);
  await ws.getByTestId("invitation-revoke-nobody@phylactery.dev").click();
  await expect(ws.getByTestId("invitation-row-nobody@phylactery.dev")).toHaveCount(0);

  // Errors are shown inline and say what to do.
  consoleErrors.allow(/status of 409 .*\/members\//);
  await members.role(ws, DEMO.email).selectOption("viewer");
  await expect(ws.getByTestId("members-error")).toContainText("last owner");
  await expect(members.role(ws, DEMO.email)).toHaveValue("owner");

  // Bad input over the API: 422 naming the field.
  const id = await members.workspaceId("Demo workspace");
  const bad = await page.request.post(`/api/workspaces/${id}/members`, { data: { email: "not an email", role: "boss" } });
  expect(bad.status()).toBe(422);
  expect((await bad.json()).error.message).toMatch(/^email: /);
});

test("a viewer sees the members but no invite form, invitations, role menus or remove buttons", async ({ page }) => {
  await new SignInPage(page).signInAndWait(VIEWER.email, VIEWER.password);
  const members = new MembersPage(page);
  await members.open();
  const ws = members.workspace("Demo workspace");
  await expect(members.row(ws, DEMO.email)).toBeVisible();
  await expect(members.role(ws, VIEWER.email)).toHaveText("viewer");
  await expect(members.role(ws, APPROVER.email)).toHaveText("approver");
  await expect(ws.getByTestId("member-add-email")).toHaveCount(0);
  await expect(ws.getByTestId("member-add-submit")).toHaveCount(0);
  await expect(ws.getByTestId("invitations")).toHaveCount(0);
  await expect(page.getByTestId("instance-admin")).toHaveCount(0);
  await expect(ws.locator("select")).toHaveCount(0);
  await expect(ws.getByTestId(`member-remove-${APPROVER.email}`)).toHaveCount(0);

  // The API refuses too: 403 naming the role.
  const id = await members.workspaceId("Demo workspace");
  const res = await page.request.post(`/api/workspaces/${id}/members`, { data: { email: APPROVER.email, role: "owner" } });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.message).toContain("viewer");
});
