import { expect, test } from "./fixtures";
import { FlowsPage, SignInPage } from "./pages/app";
import { EditorPage } from "./pages/editor";
import { APPROVER, VIEWER } from "./pages/members";

/**
 * What the editor allows, shown before trying: connections the graph cannot read are
 * refused while they are dragged, with the reason; a Policy applies to the whole flow and
 * has no handles; a role that cannot edit gets a read-only editor that says why.
 */

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
});

test("a refused connection says why while it is dragged, and no edge is drawn; a Policy has no handles", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  const flows = new FlowsPage(page);
  await page.goto("/flows");
  await flows.createFlow("blank", `Connections ${Date.now()}`);
  const editor = new EditorPage(page);

  // The Policy applies to the whole flow: no handle to drag from or to, and it says so.
  await expect(editor.node("policy").locator(".react-flow__handle")).toHaveCount(0);
  await expect(page.getByTestId("flow-node-policy-scope")).toHaveText("Applies to the whole flow");
  // Start has only an output, End only an input.
  await expect(editor.node("start").locator(".react-flow__handle.target")).toHaveCount(0);
  await expect(editor.node("end").locator(".react-flow__handle.source")).toHaveCount(0);

  // A Tool dropped under End.
  const canvas = await editor.canvas().boundingBox();
  const end = await editor.box("end");
  const policy = await editor.box("policy");
  if (!canvas) throw new Error("no canvas");
  await editor.dragFromPalette("tool", { x: end.x + end.width / 2 - canvas.x, y: policy.y + policy.height / 2 - canvas.y });
  await expect(editor.node("tool-1")).toBeVisible();
  const status = editor.connectionStatus();
  await expect(status).toHaveText("");
  const edges = await page.locator(".react-flow__edge").count();

  // Supervisor -> Tool: refused while hovering, with the rule's sentence.
  await editor.holdConnection("supervisor", { handleOf: "tool-1" });
  await expect(status).toContainText('Supervisor "Supervisor" cannot connect to Tool "read_file"');
  await expect(status).toContainText("a Supervisor connects only to an Agent, a Human input or End; a Tool is connected from an Agent.");
  await expect(status).toHaveAttribute("aria-live", "polite");
  await page.mouse.up();
  await expect(page.locator(".react-flow__edge")).toHaveCount(edges);
  // The reason stays a moment after the drop, then goes.
  await expect(status).toContainText("cannot connect to Tool");
  await expect(status).toHaveText("", { timeout: 10_000 });

  // Over the Policy (no handle): the reason is that it applies to the whole flow.
  await editor.holdConnection("supervisor", { nodeMiddle: "policy" });
  await expect(status).toContainText("Policy cannot be connected: a Policy applies to the whole flow and takes no connections.");
  await page.mouse.up();

  // An edge that is already drawn is refused too.
  await editor.holdConnection("supervisor", { handleOf: "end" });
  await expect(status).toContainText('Supervisor "Supervisor" is already connected to End "End".');
  await page.mouse.up();
  await expect(page.locator(".react-flow__edge")).toHaveCount(edges);
  await expect(editor.dirty()).toHaveCount(1); // only the dropped tool changed the flow
});

test("a viewer's editor is read-only: no palette, fields disabled, nothing moves or goes, Save and Run say why", async ({ page }) => {
  await new SignInPage(page).signInAndWait(VIEWER.email, VIEWER.password);
  // On the flows page, before trying: the flow is read-only for a viewer and cannot be run.
  const card = page.locator('li[data-testid^="flow-"]').filter({ hasText: "Workspace assistant" }).first();
  await expect(card.getByTestId("flow-role")).toHaveText("Viewer");
  await expect(card.getByTestId("open-editor")).toHaveText("View flow");
  await expect(card.getByTestId("flow-read-only")).toHaveText("Read-only: only owners edit flows, and approvers or owners run them.");
  await expect(card.getByTestId("run-start")).toBeDisabled();

  await card.getByTestId("open-editor").click();
  await expect(page.getByTestId("editor-toolbar")).toBeVisible();
  const editor = new EditorPage(page);
  await expect(page.getByTestId("read-only-notice")).toContainText("Viewers can't edit this flow; ask an owner of the workspace for the owner role.");
  await expect(page.getByTestId("palette")).toHaveCount(0);
  await expect(page.getByTestId("save-flow")).toBeDisabled();
  await expect(page.getByTestId("save-flow")).toHaveAttribute("title", /Viewers can't edit this flow/);
  await expect(page.getByTestId("save-message")).toBeDisabled();
  for (const id of ["undo", "redo", "auto-layout", "import-flow"] as const) await expect(editor.toolbarButton(id)).toBeDisabled();
  await expect(editor.runButton()).toBeDisabled();
  await expect(editor.runButton()).toHaveAttribute("title", /Viewers can't run this flow/);
  await expect(page.getByTestId("run-blocked-reason")).toContainText("ask an owner of the workspace for the approver role");

  // The inspector shows the node with every field disabled.
  await editor.clickNode("assistant");
  await expect(page.getByTestId("inspector-read-only")).toContainText("Viewers can't edit this flow");
  await expect(page.getByTestId("inspector-agent-name")).toBeDisabled();
  await expect(page.getByTestId("inspector-agent-instructions")).toBeDisabled();
  await expect(page.getByTestId("inspector-agent-icon-bot")).toBeDisabled();

  // Nothing moves, connects or goes away.
  const before = await editor.position("assistant");
  await editor.moveNode("assistant", { x: 120, y: 80 });
  expect(await editor.position("assistant")).toEqual(before);
  await expect(page.locator(".react-flow__handle.connectable")).toHaveCount(0);
  await editor.clickNode("assistant");
  await page.keyboard.press("Delete");
  await expect(editor.node("assistant")).toBeVisible();
  await page.keyboard.press("Shift+L");
  expect(await editor.position("assistant")).toEqual(before);
  await expect(editor.dirty()).toHaveCount(0);

  // Flow settings open to read, without Apply.
  await page.getByTestId("flow-settings").click();
  await expect(page.getByTestId("settings-read-only")).toBeVisible();
  await expect(page.getByTestId("settings-name")).toBeDisabled();
  await expect(page.getByTestId("settings-apply")).toHaveCount(0);
  await page.getByTestId("settings-cancel").click();

  // The history says up front that restoring is for owners.
  await editor.toolbarButton("history-link").click();
  await expect(page.getByTestId("restore-denied")).toContainText("only owners restore one");
});

test("an approver's editor is read-only but runs the flow", async ({ page }) => {
  await new SignInPage(page).signInAndWait(APPROVER.email, APPROVER.password);
  const card = page.locator('li[data-testid^="flow-"]').filter({ hasText: "Workspace assistant" }).first();
  await expect(card.getByTestId("flow-role")).toHaveText("Approver");
  await card.getByTestId("open-editor").click();
  await expect(page.getByTestId("read-only-notice")).toContainText("Approvers can run this flow but can't edit it");
  await expect(page.getByTestId("palette")).toHaveCount(0);
  await expect(page.getByTestId("save-flow")).toBeDisabled();
  await expect(new EditorPage(page).runButton()).toBeEnabled();
});
