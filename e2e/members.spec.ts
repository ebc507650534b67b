import { expect, test } from "@playwright/test";
import { DEMO, SignInPage } from "./pages/app";
import { APPROVER, MembersPage, VIEWER } from "./pages/members";

/**
 * Workspaces and members (issue 4 roles) on the seeded database: the demo account owns
 * "Demo workspace" with a seeded approver and viewer; an owner changes roles; a viewer
 * sees the members but cannot manage them, in the page or over the API.
 */
test("the owner sees the demo workspace's members, changes the viewer to approver and back, removes and re-adds the approver", async ({ page }) => {
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

  // Remove asks first; the approver is then added back by email with their role.
  await ws.getByTestId(`member-remove-${APPROVER.email}`).click();
  await ws.getByTestId(`member-remove-confirm-${APPROVER.email}`).click();
  await expect(members.row(ws, APPROVER.email)).toHaveCount(0);
  await ws.getByTestId("member-add-email").fill(APPROVER.email);
  await ws.getByTestId("member-add-role").selectOption("approver");
  await ws.getByTestId("member-add-submit").click();
  await expect(members.role(ws, APPROVER.email)).toHaveValue("approver");
  await expect(ws.getByTestId("member-add-email")).toHaveValue("");

  // Errors are shown inline and say what to do.
  await ws.getByTestId("member-add-email").fill("nobody@phylactery.dev");
  await ws.getByTestId("member-add-role").selectOption("viewer");
  await ws.getByTestId("member-add-submit").click();
  await expect(ws.getByTestId("members-error")).toContainText("no sign-up");
  await members.role(ws, DEMO.email).selectOption("viewer");
  await expect(ws.getByTestId("members-error")).toContainText("last owner");
  await expect(members.role(ws, DEMO.email)).toHaveValue("owner");

  // Bad input over the API: 422 naming the field.
  const id = await members.workspaceId("Demo workspace");
  const bad = await page.request.post(`/api/workspaces/${id}/members`, { data: { email: "not an email", role: "boss" } });
  expect(bad.status()).toBe(422);
  expect((await bad.json()).error.message).toMatch(/^email: /);
});

test("a viewer sees the members but no add form, role menus or remove buttons", async ({ page }) => {
  await new SignInPage(page).signInAndWait(VIEWER.email, VIEWER.password);
  const members = new MembersPage(page);
  await members.open();
  const ws = members.workspace("Demo workspace");
  await expect(members.row(ws, DEMO.email)).toBeVisible();
  await expect(members.role(ws, VIEWER.email)).toHaveText("viewer");
  await expect(members.role(ws, APPROVER.email)).toHaveText("approver");
  await expect(ws.getByTestId("member-add-email")).toHaveCount(0);
  await expect(ws.getByTestId("member-add-submit")).toHaveCount(0);
  await expect(ws.locator("select")).toHaveCount(0);
  await expect(ws.getByTestId(`member-remove-${APPROVER.email}`)).toHaveCount(0);

  // The API refuses too: 403 naming the role.
  const id = await members.workspaceId("Demo workspace");
  const res = await page.request.post(`/api/workspaces/${id}/members`, { data: { email: APPROVER.email, role: "owner" } });
  expect(res.status()).toBe(403);
  expect((await res.json()).error.message).toContain("viewer");
});
