import { expect, test } from "./fixtures";
import { FlowsPage, SignInPage } from "./pages/app";
import { InspectorPanel } from "./pages/inspector";

/**
 * The inspector: one form per node kind, driven by the kind's zod
 * schema. Valid values reach the canvas as they are typed; invalid ones show an inline
 * error and are not applied until fixed.
 */

test.beforeEach(async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  await new FlowsPage(page).newFromTemplate("workspace-assistant");
});

test("agent: inline errors keep the node unchanged, valid edits show on the canvas", async ({ page }) => {
  const inspector = new InspectorPanel(page);
  await inspector.select("assistant");
  const name = inspector.field("agent", "name");
  await expect(name).toHaveValue("Assistant");

  await name.fill("");
  await expect(inspector.error("name")).toHaveText("Required");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(inspector.pending()).toBeVisible();
  await expect(inspector.node("assistant")).toContainText("Assistant");
  await expect(page.getByTestId("dirty-indicator")).toHaveCount(0);

  await name.fill("File clerk");
  await expect(inspector.error("name")).toHaveCount(0);
  await expect(inspector.pending()).toHaveCount(0);
  await expect(inspector.node("assistant")).toContainText("File clerk");
  await expect(page.getByTestId("dirty-indicator")).toBeVisible();

  const tries = inspector.field("agent", "max-tries");
  await tries.fill("11");
  await expect(inspector.error("maxTries")).toHaveText("At most 10");
  await expect(tries).toHaveAttribute("aria-invalid", "true");
  // Not applied: the node still has 3 tries when its form is opened again.
  await inspector.select("supervisor");
  await inspector.select("assistant");
  await expect(inspector.field("agent", "max-tries")).toHaveValue("3");
  await expect(inspector.field("agent", "name")).toHaveValue("File clerk");

  // By keyboard: Tab from the name to the role, choose Reviewer; the canvas marks the node.
  await inspector.field("agent", "name").focus();
  await page.keyboard.press("Tab");
  const role = inspector.field("agent", "role");
  await expect(role).toBeFocused();
  await role.press("End");
  await expect(role).toHaveValue("reviewer");
  await expect(page.getByTestId("flow-node-assistant-reviewer")).toBeVisible();
});

test("policy: a new rule moved first decides the tool node's badge; an invalid glob is held back", async ({ page }) => {
  const inspector = new InspectorPanel(page);
  await expect(inspector.decision("t-write")).toHaveText("AUTH_REQUIRED");
  await inspector.select("policy");

  const added = await inspector.addRule("*");
  await inspector.ruleTool(added).fill("write_*");
  await inspector.ruleDecision(added).selectOption("BLOCKED");
  // Rule 3 (write_file AUTH_REQUIRED) still comes first.
  await expect(inspector.decision("t-write")).toHaveText("AUTH_REQUIRED");
  await inspector.moveRuleToTop(added);
  await expect(inspector.ruleTool(0)).toHaveValue("write_*");
  await expect(inspector.decision("t-write")).toHaveText("BLOCKED");
  await expect(inspector.node("policy")).toContainText("write_*");

  await inspector.ruleTool(0).fill("Write File");
  await expect(inspector.error("rules.0.tool")).toContainText("tool name or glob");
  await expect(inspector.pending()).toBeVisible();
  await expect(inspector.decision("t-write")).toHaveText("BLOCKED");
  await inspector.ruleTool(0).fill("write_file");
  await expect(inspector.error("rules.0.tool")).toHaveCount(0);
  await expect(inspector.decision("t-write")).toHaveText("BLOCKED");

  // Without its rule, delete_file (a side effect) is covered by nothing: an error on the node.
  await expect(inspector.ruleTool(4)).toHaveValue("delete_file");
  await inspector.removeRule(4);
  await expect(inspector.nodeProblems("t-delete")).toHaveAttribute("data-severity", "error");
  await inspector.select("t-delete");
  await expect(inspector.problems()).toContainText("no policy rule covers it");
});

test("tool: pick another catalog tool; the node, its description and its decision follow", async ({ page }) => {
  const inspector = new InspectorPanel(page);
  await inspector.select("t-list");
  const tool = inspector.field("tool", "select");
  await expect(tool).toHaveValue("list_files");
  await expect(inspector.decision("t-list")).toHaveText("ALLOW");
  await expect(page.getByTestId("inspector-tool-side-effect")).toHaveCount(0);

  await tool.selectOption("delete_file");
  await expect(inspector.node("t-list")).toContainText("delete_file");
  await expect(inspector.decision("t-list")).toHaveText("BLOCKED");
  await expect(page.getByTestId("inspector-tool-description")).toContainText(/delete/i);
  await expect(page.getByTestId("inspector-tool-side-effect")).toBeVisible();
  await expect(page.getByTestId("inspector-tool-decision")).toHaveText("BLOCKED");
  await expect(page.getByTestId("flow-node-t-list-side-effect")).toBeVisible();
});
