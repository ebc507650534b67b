import { expect, test } from "./fixtures";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";

/**
 * The canvas: change an agent's instructions and a policy's decision,
 * disconnect and connect nodes, save a new version; the saved version is what runs.
 */
test("edit the flow on the canvas, save v2, and the new policy governs the next run", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  const flows = new FlowsPage(page);
  await flows.newFromTemplate();
  const version = Number((await page.getByTestId("flow-version").textContent())?.replace(/\D/g, ""));

  // Agent instructions.
  await page.getByTestId("flow-node-assistant").click();
  await page.getByTestId("inspector-agent-instructions").fill("Work carefully, one step at a time. Quote what you read.");
  await expect(page.getByTestId("dirty-indicator")).toBeVisible();

  // Policy: write_file becomes ALLOW (rule 2 of the template's policy).
  await page.getByTestId("flow-node-policy").click();
  await expect(page.getByTestId("inspector-rule-decision-2")).toHaveValue("AUTH_REQUIRED");
  await page.getByTestId("inspector-rule-decision-2").selectOption("ALLOW");
  await expect(page.getByTestId("flow-node-t-write-decision")).toHaveText(/ALLOW/);

  // Disconnect the delete tool from the agent, then connect it again by dragging handles.
  // Click the edge just before it enters delete_file's handle, where no other edge runs.
  const handle = await page.locator('.react-flow__node[data-id="t-delete"] .react-flow__handle.target').boundingBox();
  if (!handle) throw new Error("no target handle");
  await page.mouse.click(handle.x - 6, handle.y + handle.height / 2);
  await page.getByTestId("edge-disconnect").click();
  await expect(page.getByTestId("rf__edge-e-delete")).toHaveCount(0);
  const source = page.locator('.react-flow__node[data-id="assistant"] .react-flow__handle.source');
  const target = page.locator('.react-flow__node[data-id="t-delete"] .react-flow__handle.target');
  await source.dragTo(target);
  await expect(page.locator('[data-testid^="rf__edge-e-assistant-t-delete"]')).toHaveCount(1);

  await page.getByTestId("save-message").fill("Allow writes; careful instructions");
  await page.getByTestId("save-flow").click();
  await expect(page.getByTestId("save-status")).toHaveText(`Saved v${version + 1}`);
  await expect(page.getByTestId("flow-version")).toHaveText(`v${version + 1}`);

  // The saved version is what the editor shows after a reload.
  await page.reload();
  await expect(page.getByTestId("flow-version")).toHaveText(`v${version + 1}`);
  await page.getByTestId("flow-node-assistant").click();
  await expect(page.getByTestId("inspector-agent-instructions")).toHaveValue(/Work carefully/);

  // And it governs the next run: with write_file ALLOWed there is no approval card.
  await flows.startRun("Summarize release-notes.md into release-summary.md");
  const run = new RunPage(page);
  await run.waitForStatus("completed");
  await expect(page.getByTestId("approval-card")).toHaveCount(0);
  expect(await run.openWorkspaceFile("release-summary.md")).toContain("# Summary of release-notes.md");
});

test("an invalid edit is refused with the field named and nothing is saved", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  await new FlowsPage(page).newFromTemplate();
  const before = await page.getByTestId("flow-version").textContent();
  await page.getByTestId("flow-node-assistant").click();
  await page.getByTestId("inspector-agent-name").fill("");
  await page.getByTestId("save-flow").click();
  await expect(page.getByTestId("save-error")).toContainText("name");
  await expect(page.getByTestId("flow-version")).toHaveText(before ?? "");
});
