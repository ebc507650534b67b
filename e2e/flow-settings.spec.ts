import { expect, test } from "./fixtures";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";
import { EditorPage } from "./pages/editor";
import { FlowSettingsDialog } from "./pages/flow-settings";

/**
 * Flow settings: the network allowlist and memory are edited in a dialog validated
 * by the flow schema; Apply is one undoable change, saved with the flow.
 */
test("add a host to the network allowlist, save, and it is still there after a reload", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  await new FlowsPage(page).newFromTemplate();
  const editor = new EditorPage(page);
  const settings = new FlowSettingsDialog(page);
  const version = Number((await page.getByTestId("flow-version").textContent())?.replace(/\D/g, ""));

  await settings.open();
  await expect(settings.hosts()).toHaveValue("");
  // A template flow mounts the workspace library by default; the owner switches it off here.
  await expect(settings.libraryMount()).toBeChecked();
  await settings.libraryMount().uncheck();
  await expect(settings.method("GET")).toBeChecked();
  await expect(settings.method("POST")).not.toBeChecked();
  await settings.addHost("api.example.com");
  await settings.method("POST").check();
  await page.getByTestId("settings-network-timeout").fill("5000");
  await page.getByTestId("settings-auto-promote").check();
  await settings.apply();
  await expect(settings.dialog()).toBeHidden();
  await expect(editor.dirty()).toBeVisible();

  // Apply is one undo step, and redo brings it back.
  await editor.toolbarButton("undo").click();
  await settings.open();
  await expect(settings.hosts()).toHaveValue("");
  await page.getByTestId("settings-cancel").click();
  await editor.toolbarButton("redo").click();

  await page.getByTestId("save-message").fill("Allow api.example.com");
  await page.getByTestId("save-flow").click();
  await expect(page.getByTestId("save-status")).toHaveText(`Saved v${version + 1}`);

  await page.reload();
  await expect(page.getByTestId("flow-version")).toHaveText(`v${version + 1}`);
  // The keyboard shortcut opens the dialog too.
  await editor.clickEmptyPane();
  await page.keyboard.press("Alt+Comma");
  await expect(settings.dialog()).toBeVisible();
  await expect(settings.hosts()).toHaveValue("api.example.com");
  await expect(settings.method("POST")).toBeChecked();
  await expect(page.getByTestId("settings-network-timeout")).toHaveValue("5000");
  await expect(page.getByTestId("settings-auto-promote")).toBeChecked();
  await expect(settings.libraryMount()).not.toBeChecked();
});

test("an invalid host shows its error under the field and changes nothing", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  await new FlowsPage(page).newFromTemplate();
  const editor = new EditorPage(page);
  const settings = new FlowSettingsDialog(page);

  await settings.open();
  await settings.addHost("api.example.com");
  await settings.addHost("https://bad host/");
  await settings.apply();
  await expect(settings.error("allowHosts")).toContainText('Allowed hosts: "https://bad" is not a valid entry: host like api.example.com');
  await expect(settings.dialog()).toBeVisible();

  await settings.hosts().fill("api.example.com");
  await page.getByTestId("settings-name").fill("");
  await settings.method("GET").uncheck();
  await settings.method("HEAD").uncheck();
  await settings.apply();
  await expect(settings.error("allowHosts")).toHaveCount(0);
  await expect(settings.error("name")).toHaveText("Name: Required");
  await expect(settings.error("methods")).toBeVisible();

  await page.getByTestId("settings-cancel").click();
  await expect(settings.dialog()).toBeHidden();
  await expect(editor.dirty()).toHaveCount(0);
});

test("the model call time limit: 2 minutes unless set, checked, saved with the flow", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  await new FlowsPage(page).newFromTemplate();
  const editor = new EditorPage(page);
  const settings = new FlowSettingsDialog(page);
  const limit = page.getByTestId("settings-model-timeout");
  const version = Number((await page.getByTestId("flow-version").textContent())?.replace(/\D/g, ""));

  await settings.open();
  await expect(limit).toHaveValue("120000");
  // The default stays implicit: applying it unchanged changes nothing.
  await settings.apply();
  await expect(settings.dialog()).toBeHidden();
  await expect(editor.dirty()).toHaveCount(0);

  await settings.open();
  await limit.fill("500");
  await settings.apply();
  await expect(settings.error("modelCallTimeoutMs")).toContainText("Model call time limit (ms):");
  await limit.fill("30000");
  await settings.apply();
  await expect(settings.dialog()).toBeHidden();
  await expect(editor.dirty()).toBeVisible();
  await page.getByTestId("save-message").fill("Model calls: 30 s");
  await page.getByTestId("save-flow").click();
  await expect(page.getByTestId("save-status")).toHaveText(`Saved v${version + 1}`);

  await page.reload();
  await settings.open();
  await expect(limit).toHaveValue("30000");
});

test("a flow runs JavaScript in the QuickJS sandbox of the built app", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  const flows = new FlowsPage(page);
  await flows.newFromTemplate();
  const editor = new EditorPage(page);

  await page.getByTestId("palette-tool-select").selectOption("run_javascript");
  await editor.dragFromPalette("tool", { x: 150, y: 330 });
  await expect(editor.node("tool-1")).toContainText("run_javascript");
  await editor.connect("assistant", "tool-1");
  await expect(editor.problemsCount()).toHaveAttribute("data-errors", "0");
  await page.getByTestId("save-flow").click();
  await expect(page.getByTestId("save-status")).toBeVisible();

  // "Compute" makes it a task (lib/engine/intent.ts); the offline model runs the code in backticks.
  await flows.startRun("Compute `[1, 2, 3].map((x) => x * 7).reduce((a, b) => a + b)`");
  await new RunPage(page).waitForStatus("completed");
  await expect(page.getByTestId("final-answer").last()).toContainText("The script returned: 42");
});
