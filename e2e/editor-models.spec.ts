import { EditorPage } from "./pages/editor";
import { expect, test } from "./fixtures";
import { FlowsPage, SignInPage } from "./pages/app";
import { InspectorPanel } from "./pages/inspector";

/**
 * A model per node (docs/models.md): the inspector picks an agent's model, temperature and
 * max output, saving keeps them; a model of a provider that is not configured is a problem.
 */

test.beforeEach(async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  await new FlowsPage(page).newFromTemplate("workspace-assistant");
});

test("an agent's model, temperature and max output are kept by a save; an unconfigured provider is a problem", async ({ page }) => {
  const inspector = new InspectorPanel(page);
  const editor = new EditorPage(page);
  await inspector.select("assistant");
  await inspector.field("agent", "model").fill("offline:fast");
  await inspector.field("agent", "temperature").fill("0.4");
  await inspector.field("agent", "max-output").fill("900");
  await inspector.field("agent", "temperature").fill("3");
  await expect(inspector.error("temperature")).toBeVisible();
  await inspector.field("agent", "temperature").fill("0.4");
  await expect(inspector.error("temperature")).toHaveCount(0);
  await expect(editor.problemsCount()).toHaveAttribute("data-errors", "0");

  await page.getByTestId("save-message").fill("A model for the assistant");
  await page.getByTestId("save-flow").click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved v2");
  await page.reload();
  await inspector.select("assistant");
  await expect(inspector.field("agent", "model")).toHaveValue("offline:fast");
  await expect(inspector.field("agent", "temperature")).toHaveValue("0.4");
  await expect(inspector.field("agent", "max-output")).toHaveValue("900");

  // No Anthropic provider in this deployment's settings: the panel says so and Run is held back.
  await inspector.field("agent", "model").fill("anthropic:claude-x");
  const problem = editor.problems("unknown_provider", "assistant");
  await expect(problem).toHaveCount(1);
  await expect(problem).toContainText("Agent 'Assistant' uses anthropic:claude-x, but no Anthropic provider is configured: add one in Settings.");
  await expect(editor.problemsCount()).toHaveAttribute("data-errors", "1");
});
