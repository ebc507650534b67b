import { expect, test } from "./fixtures";
import { FlowsPage, SignInPage } from "./pages/app";
import { VIEWER } from "./pages/members";
import { RunViewPage, threadIdOf } from "./pages/run-view";

const TASK = "Read notes.md and tell me what it says";

/**
 * Time travel: a read-only run of the Workspace assistant completes; its
 * checkpoints are listed newest first; the state at an earlier checkpoint (the read step in
 * progress) shows its plan and messages; "Fork from here" opens a new thread that says
 * where it came from and, continued, runs the step again to completion, while the origin
 * keeps its own history. The run view shows who did what: agent badges on steps, handoffs
 * and tool calls, with the tool's input and output.
 */
test("fork a finished run from an earlier checkpoint and continue the fork", async ({ page, browser }) => {
  await new SignInPage(page).signInAndWait();
  const flows = new FlowsPage(page);
  await flows.newFromTemplate("workspace-assistant");
  await flows.startRun(TASK);
  const run = new RunViewPage(page);
  await run.waitForStatus("completed");
  const originId = threadIdOf(page.url());

  // The timeline: agent identity on the step, the handoff and the tool call; input and output.
  // The step's own badge (a Memory injected block inside the step has one too).
  await expect(page.getByTestId("step-event").first().getByTestId("agent-badge").first()).toContainText("Assistant");
  await expect(page.getByTestId("handoff").first().getByTestId("agent-badge")).toContainText("Assistant");
  const read = run.toolCall("read_file");
  await expect(read).toHaveAttribute("data-status", "done");
  await expect(read.getByTestId("agent-badge")).toContainText("Assistant");
  await expect(read.getByTestId("tool-input")).toContainText('"path": "notes.md"');
  await expect(read.getByTestId("tool-output")).toContainText("Phylactery 0.2 planning meeting");

  // Checkpoints, newest first.
  await run.openCheckpoints();
  const steps = await run.steps();
  expect(steps.length).toBeGreaterThan(8);
  expect(steps).toEqual([...steps].sort((a, b) => b - a));
  await expect(run.rows().first()).toHaveAttribute("data-writers", "finalizer");
  await expect(run.rows().last()).toHaveAttribute("data-source", "input");

  // The state at the checkpoint before the read step runs.
  const row = run.rowWhereNext("executor");
  const step = await row.getAttribute("data-step");
  const state = await run.openState(row);
  await expect(state.getByTestId("checkpoint-step")).toHaveAttribute("data-status", "in_progress");
  await expect(state.getByTestId("checkpoint-step")).toContainText("Read notes.md");
  await expect(state.getByTestId("checkpoint-message").first()).toContainText(TASK);
  await state.getByTestId("checkpoint-raw").locator("summary").click();
  await expect(state.getByTestId("checkpoint-raw").locator("pre")).toContainText(`"thread_id": "${originId}"`);
  await expect(state.getByTestId("fork-note")).toContainText("copied as they are now");

  // Fork from here: a new thread that names its origin.
  const forkId = await run.forkFromHere();
  expect(forkId).not.toBe(originId);
  const banner = run.forkedFrom();
  await expect(banner).toHaveAttribute("data-origin", originId);
  await expect(banner.getByTestId("forked-from-step")).toHaveText(step ?? "");
  await expect(banner.getByTestId("forked-from-link")).toHaveAttribute("href", `/threads/${originId}`);
  await expect(banner.getByTestId("forked-plan-step")).toHaveAttribute("data-status", "in_progress");
  await expect(banner.getByTestId("forked-message").first()).toContainText(TASK);
  await expect(page.getByTestId("thread-title")).toHaveText(`Fork of ${TASK}`);
  await run.waitForStatus("ready to continue");

  // Continue: the read step runs again, in the fork, to the end.
  await page.getByTestId("continue-run").click();
  await run.waitForStatus("completed");
  await expect(run.toolCall("read_file")).toHaveAttribute("data-status", "done");
  await expect(page.getByTestId("final-answer").last()).toBeVisible();
  await run.openCheckpoints();
  await expect(run.rows().last()).toHaveAttribute("data-source", "fork");
  expect((await run.steps()).length).toBeGreaterThan(3);

  // The origin is unchanged, and the banner leads back to it.
  await page.getByTestId("forked-from-link").click();
  await page.waitForURL(`**/threads/${originId}`);
  await run.waitForStatus("completed");
  await expect(run.forkedFrom()).toHaveCount(0);
  await run.openCheckpoints();
  expect(await run.steps()).toEqual(steps);

  // The fork API names what is wrong.
  const bad = await page.request.post(`/api/threads/${originId}/fork`, { data: { checkpointId: "not-a-checkpoint" } });
  expect(bad.status()).toBe(422);
  expect((await bad.json()).error.message).toContain("checkpointId");
  const ghost = "1f000000-0000-6000-8000-000000000000";
  const missing = await page.request.post(`/api/threads/${originId}/fork`, { data: { checkpointId: ghost } });
  expect(missing.status()).toBe(404);
  expect((await missing.json()).error.message).toContain(ghost);

  // A viewer of the workspace sees the checkpoints but may not fork (403).
  const viewer = await (await browser.newContext()).newPage();
  await new SignInPage(viewer).signInAndWait(VIEWER.email, VIEWER.password);
  await viewer.goto(`/threads/${originId}`);
  const asViewer = new RunViewPage(viewer);
  await asViewer.openCheckpoints();
  await asViewer.openState(asViewer.rows().first());
  await expect(viewer.getByTestId("fork-not-allowed")).toBeVisible();
  await expect(viewer.getByTestId("fork-from-checkpoint")).toHaveCount(0);
  const checkpointId = ((await asViewer.rows().first().getAttribute("data-testid")) ?? "").replace("checkpoint-row-", "");
  const refused = await viewer.request.post(`/api/threads/${originId}/fork`, { data: { checkpointId } });
  expect(refused.status()).toBe(403);
  await viewer.context().close();
});
