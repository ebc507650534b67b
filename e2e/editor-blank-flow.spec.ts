import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";
import { EditorPage } from "./pages/editor";
import { InspectorPanel } from "./pages/inspector";
import { VersionsPage } from "./pages/versions";

/**
 * Building a flow from nothing: the Blank flow, named and described in the "New flow"
 * dialog, says in words that it needs an Agent; an Agent and a tool dragged from the
 * palette and connected make it valid; it saves and runs to completion with the offline
 * model; the agent's icon is an SVG (lucide) on the canvas and in the run view. The flows
 * page has one "New flow" button (its dialog offers every template); a Blank flow's task box
 * starts empty, and its version 1 says "Blank flow".
 */

/** Console errors of a page, collected from the start of a test. */
function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  return errors;
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await new SignInPage(page).signInAndWait();
});

test("from a Blank flow to a completed run: name and description, add an agent and a tool, connect, save, run", async ({ page }) => {
  const errors = consoleErrors(page);
  const editor = new EditorPage(page);
  const name = `From scratch ${Date.now()}`;

  // One "New flow" button; its dialog starts from the Blank flow and offers every template.
  await expect(page.getByRole("button", { name: /new .*flow/i })).toHaveCount(1);
  const dialog = await new FlowsPage(page).openNewFlow();
  await expect(dialog.getByTestId("new-flow-template").locator("option:checked")).toHaveText("Blank flow");
  await expect(dialog.getByTestId("new-flow-template").locator("option")).toHaveText(["Blank flow", "Workspace assistant", "Research brief", "Guided summary", "Memory assistant"]);
  // The dialog asks for a name before creating anything.
  await expect(dialog.getByTestId("new-flow-about")).toHaveText("Start, a Supervisor, End and an empty Policy: you add the agents and tools.");
  await expect(dialog.getByTestId("new-flow-description")).toHaveValue("");
  await dialog.getByTestId("new-flow-create").click();
  await expect(dialog.getByTestId("new-flow-name-error")).toContainText("Give the flow a name");
  await expect(page).toHaveURL(/\/flows$/);
  await dialog.getByTestId("new-flow-name").fill(name);
  await dialog.getByTestId("new-flow-description").fill("Lists what is in the workspace.");
  await dialog.getByTestId("new-flow-create").click();
  await page.waitForURL(/\/flows\/[^/]+$/);
  const flowUrl = page.url();
  await expect(page.getByTestId("editor-toolbar").getByRole("heading")).toHaveText(name);
  // No task is suggested for a flow whose agents the user has yet to add: the box shows its placeholder only.
  await expect(page.getByTestId("run-task").first()).toHaveValue("");
  await expect(page.getByTestId("run-task").first()).toHaveAttribute("placeholder", /^e\.g\. /);

  // Start, Supervisor, End and an empty Policy; the only problem says to add an Agent.
  expect((await editor.nodeIds()).sort()).toEqual(["end", "policy", "start", "supervisor"]);
  await expect(editor.problemsCount()).toHaveAttribute("data-errors", "1");
  const missing = editor.problems("missing_agent");
  await expect(missing).toContainText("Add an Agent from the palette and connect the Supervisor to it.");
  await expect(editor.problemsPanel()).not.toContainText(/too small|expected array/i);
  await expect(editor.runButton()).toBeDisabled();
  await expect(page.getByTestId("run-blocked-reason")).toContainText("Add an Agent from the palette");
  await expect(page.getByTestId("flow-node-policy-no-rules")).toHaveText("No rules yet: a tool with side effects needs one before the flow runs.");

  // Drop an Agent under Start and a Tool (list_files) under End, away from the other nodes.
  const canvas = await editor.canvas().boundingBox();
  const start = await editor.box("start");
  const end = await editor.box("end");
  const policy = await editor.box("policy");
  if (!canvas) throw new Error("no canvas");
  const row = policy.y + policy.height / 2 - canvas.y;
  await editor.dragFromPalette("agent", { x: start.x + start.width / 2 - canvas.x, y: row });
  await expect(editor.node("agent-1")).toBeVisible();
  await page.getByTestId("palette-tool-select").selectOption("list_files");
  await editor.dragFromPalette("tool", { x: end.x + end.width / 2 - canvas.x, y: row });
  await expect(editor.node("tool-1")).toContainText("list_files");
  await expect(editor.problems("missing_agent")).toHaveCount(0);
  await expect(editor.problems("unreachable", "agent-1")).toHaveCount(1);

  // The agent's icon: a lucide SVG picked in the inspector, never an emoji glyph.
  const inspector = new InspectorPanel(page);
  await inspector.select("agent-1");
  await inspector.field("agent", "name").fill("Lister");
  await page.getByTestId("inspector-agent-icon-folder").check();
  await expect(editor.node("agent-1").locator('svg[data-icon="folder"]')).toBeVisible();
  await expect(editor.node("agent-1")).toContainText("Lister");

  await editor.connect("supervisor", "agent-1");
  await expect(editor.edge("e-supervisor-agent-1-1")).toBeVisible();
  await editor.connect("agent-1", "tool-1");
  await expect(editor.edge("e-agent-1-tool-1-1")).toBeVisible();
  await expect(editor.problemsCount()).toHaveAttribute("data-errors", "0");
  await expect(editor.problemsCount()).toHaveAttribute("data-warnings", "0");

  await page.getByTestId("save-message").fill("An agent that lists files");
  await page.getByTestId("save-flow").click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved v2");
  // Saved and valid; Run waits for a task, as none is suggested.
  await expect(editor.runButton()).toBeDisabled();
  await expect(page.getByTestId("run-blocked-reason")).toHaveCount(0);

  // Run it with the offline model: the agent lists the workspace and the run completes.
  await page.getByTestId("run-task").first().fill("List the files in the workspace");
  await expect(editor.runButton()).toBeEnabled();
  await editor.runButton().click();
  await page.waitForURL(/\/threads\//);
  const run = new RunPage(page);
  await run.waitForStatus("completed");
  await expect(page.getByTestId("final-answer").last()).toContainText("notes.md");
  const badge = page.getByTestId("agent-badge").first();
  await expect(badge).toContainText("Lister");
  await expect(badge.locator('svg[data-icon="folder"]')).toBeVisible();

  // The flows page lists it with the name and description given, not the template's.
  await page.goto("/flows");
  const flowId = new URL(flowUrl).pathname.split("/").pop() ?? "";
  const card = page.getByTestId(`flow-${flowId}`);
  await expect(card.getByTestId("open-flow")).toHaveText(name);
  await expect(card).toContainText("Lists what is in the workspace.");
  await expect(card).not.toContainText("Blank flow");
  await expect(card.getByTestId("run-task")).toHaveValue("");
  // Its first version says what it started from.
  const versions = new VersionsPage(page);
  await versions.open(flowId);
  await expect(versions.row(1).getByTestId("version-message")).toHaveText("Blank flow");
  expect(errors).toEqual([]);
});

test("a template copy takes the name and description given in the dialog", async ({ page }) => {
  const dialog = await new FlowsPage(page).openNewFlow();
  await dialog.getByTestId("new-flow-template").selectOption("workspace-assistant");
  await expect(dialog.getByTestId("new-flow-description")).toHaveValue(/writing needs your approval/);
  // Another starting point brings its own description while the user has not written one.
  await dialog.getByTestId("new-flow-template").selectOption("research-brief");
  await expect(dialog.getByTestId("new-flow-description")).not.toHaveValue(/writing needs your approval/);
  await dialog.getByTestId("new-flow-template").selectOption("workspace-assistant");
  await dialog.getByTestId("new-flow-name").fill("Release notes reader");
  await dialog.getByTestId("new-flow-description").fill("Reads release-notes.md for the team.");
  await dialog.getByTestId("new-flow-create").click();
  await page.waitForURL(/\/flows\/[^/]+$/);
  await expect(page.getByTestId("editor-toolbar").getByRole("heading")).toHaveText("Release notes reader");
  await page.getByTestId("flow-settings").click();
  await expect(page.getByTestId("settings-name")).toHaveValue("Release notes reader");
  await expect(page.getByTestId("settings-description")).toHaveValue("Reads release-notes.md for the team.");
});
