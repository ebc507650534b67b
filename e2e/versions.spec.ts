import { expect, test } from "./fixtures";
import { DEMO, FlowsPage, RunPage, SignInPage } from "./pages/app";
import { VIEWER } from "./pages/members";
import { ComparePage, runBreadcrumb, VersionsPage } from "./pages/versions";

/**
 * Flow versions: save two versions and see the diff, restore one as a new
 * version, run a pinned version; bad version params are 4xx naming the field; a viewer
 * sees the history without restore or run.
 */

const TEMPLATE_INSTRUCTIONS = "Carry out one step at a time with the file tools. Quote what you read; never invent file contents.";
const NEW_INSTRUCTIONS = "Read before you write. Quote what you read.";
/** A task that only reads, so the offline model completes it without an approval. */
const READ_TASK = "Read notes.md";

/** The id of the flow whose editor is open. */
const flowIdOf = (url: string) => new URL(url).pathname.split("/")[2] ?? "";

test("save two versions and see the diff, restore v1 as v3, run a pinned version", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  const flows = new FlowsPage(page);
  await flows.newFromTemplate();
  const flowId = flowIdOf(page.url());
  expect(flowId).not.toBe("");

  // v2: new instructions for the agent, saved from the editor.
  await page.getByTestId("flow-node-assistant").click();
  await page.getByTestId("inspector-agent-instructions").fill(NEW_INSTRUCTIONS);
  await page.getByTestId("save-message").fill("Shorter instructions");
  await page.getByTestId("save-flow").click();
  await expect(page.getByTestId("save-status")).toHaveText("Saved v2");

  // The history: both versions, newest first, with message, author, time and the latest marked.
  const versions = new VersionsPage(page);
  await versions.open(flowId);
  await expect(versions.rows()).toHaveCount(2);
  await expect(versions.rows().first()).toHaveAttribute("data-testid", "version-row-2");
  await expect(versions.row(2).getByTestId("version-message")).toHaveText("Shorter instructions");
  await expect(versions.row(1).getByTestId("version-message")).toHaveText("From template");
  await expect(versions.row(2).getByTestId("version-author")).toHaveText(DEMO.email);
  await expect(versions.row(2).getByTestId("version-time")).toHaveText(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} UTC$/);
  await expect(versions.row(2).getByTestId("version-latest")).toBeVisible();
  await expect(versions.row(1).getByTestId("version-latest")).toHaveCount(0);
  await expect(versions.row(1).getByTestId("version-runs")).toHaveText("0");
  // Restoring the latest would copy it unchanged: only older versions offer it.
  await expect(versions.row(2).getByTestId("restore-version-2")).toHaveCount(0);
  await expect(versions.row(1).getByTestId("restore-version-1")).toBeVisible();

  // Compare v1 -> v2: the agent changed (amber), the rest did not; the field is listed.
  await versions.compare(1, 2);
  const compare = new ComparePage(page);
  await expect(compare.node("assistant")).toHaveAttribute("data-change", "changed");
  await expect(compare.node("supervisor")).toHaveAttribute("data-change", "unchanged");
  await expect(compare.node("t-write")).toHaveAttribute("data-change", "unchanged");
  await expect(page.getByTestId("diff-legend")).toContainText("removed");
  await expect(compare.item("assistant")).toHaveAttribute("data-change", "changed");
  await expect(compare.fields()).toHaveCount(1);
  await expect(compare.field("data.instructions")).toHaveText(`data.instructions: "${TEMPLATE_INSTRUCTIONS}" → "${NEW_INSTRUCTIONS}"`);
  await expect(compare.empty()).toHaveCount(0);

  // The picker compares a version with itself: no differences.
  await page.getByTestId("compare-select-from").selectOption("2");
  await page.getByRole("button", { name: "Compare" }).click();
  await expect(page.getByTestId("compare-title")).toHaveText("v2 → v2");
  await expect(compare.empty()).toBeVisible();
  await expect(compare.node("assistant")).toHaveAttribute("data-change", "unchanged");

  // A bad or missing version in the query is explained, naming the field.
  await page.goto(`/flows/${flowId}/versions/compare?from=abc&to=2`);
  await expect(page.getByTestId("compare-error")).toContainText("from: a version number");
  await page.goto(`/flows/${flowId}/versions/compare?from=1&to=9`);
  await expect(page.getByTestId("compare-error")).toHaveText("to: this flow has no version 9.");

  // Restore v1: a new v3 "Restored v1" opens in the editor, with v1's document.
  await versions.open(flowId);
  await versions.restore(1);
  expect(flowIdOf(page.url())).toBe(flowId);
  await expect(page.getByTestId("flow-version")).toHaveText("v3");
  await versions.open(flowId);
  await expect(versions.rows()).toHaveCount(3);
  await expect(versions.row(3).getByTestId("version-message")).toHaveText("Restored v1");
  await expect(versions.row(3).getByTestId("version-latest")).toBeVisible();
  await versions.compare(1, 3);
  await expect(compare.empty()).toBeVisible();
  await versions.open(flowId);
  await versions.compare(2, 3);
  await expect(compare.field("data.instructions")).toHaveText(`data.instructions: "${NEW_INSTRUCTIONS}" → "${TEMPLATE_INSTRUCTIONS}"`);

  // Run v1 from its row: the run view names v1, and the run completes.
  await versions.open(flowId);
  await versions.runVersion(1, READ_TASK);
  const run = new RunPage(page);
  await expect(runBreadcrumb(page)).toContainText(/ v1 ·/);
  await run.waitForStatus("completed");
  await expect(page.getByTestId("final-answer").last()).toContainText("notes.md");

  // Run v2 from the version menu (the default is the latest).
  await versions.open(flowId);
  await expect(versions.row(1).getByTestId("version-runs")).toHaveText("1");
  const menu = page.getByTestId("run-any-version");
  await expect(menu.getByTestId("run-version")).toHaveValue("");
  await expect(menu.getByTestId("run-version").locator("option").first()).toHaveText("Latest (v3)");
  await expect(menu.getByTestId("run-version").locator("option")).toHaveText(["Latest (v3)", "v3 — Restored v1", "v2 — Shorter instructions", "v1 — From template"]);
  await menu.getByTestId("run-version").selectOption("2");
  await menu.getByTestId("run-task").fill(READ_TASK);
  await menu.getByTestId("run-start").click();
  await page.waitForURL(/\/threads\//);
  await expect(runBreadcrumb(page)).toContainText(/ v2 ·/);
  await run.waitForStatus("completed");
  await versions.open(flowId);
  await expect(versions.row(2).getByTestId("version-runs")).toHaveText("1");
  await expect(versions.row(3).getByTestId("version-runs")).toHaveText("0");
});

test("the versions API: bad params are 4xx naming the field; a viewer reads the history but cannot restore or run", async ({ page, browser, baseURL }) => {
  await new SignInPage(page).signInAndWait();
  const created = await page.request.post("/api/flows", { data: { template: "workspace-assistant" } });
  expect(created.status()).toBe(201);
  const { flowId } = (await created.json()) as { flowId: string };
  const api = `/api/flows/${flowId}/versions`;

  // v2 over the API: the template with the supervisor moved (a move only).
  const v1 = await page.request.get(`${api}/1`);
  expect(v1.status()).toBe(200);
  const v1Body = (await v1.json()) as { version: number; message: string; author: string; document: { nodes: { id: string; position: { x: number; y: number } }[] } };
  expect(v1Body).toMatchObject({ version: 1, message: "From template", author: DEMO.email });
  const document = structuredClone(v1Body.document);
  for (const n of document.nodes) if (n.id === "supervisor") n.position = { x: n.position.x, y: n.position.y + 200 };
  const saved = await page.request.post(api, { data: { document, message: "Move the supervisor" } });
  expect(saved.status()).toBe(201);
  expect(await saved.json()).toMatchObject({ version: 2 });

  const list = await page.request.get(api);
  expect(list.status()).toBe(200);
  expect(((await list.json()) as { versions: { version: number; message: string; runs: number }[] }).versions.map((v) => [v.version, v.message, v.runs])).toEqual([
    [2, "Move the supervisor", 0],
    [1, "From template", 0],
  ]);

  const expectError = async (res: Awaited<ReturnType<typeof page.request.get>>, status: number, message: RegExp) => {
    expect(res.status()).toBe(status);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(message);
  };
  await expectError(await page.request.get(`${api}/abc`), 422, /^version: a version number/);
  await expectError(await page.request.get(`${api}/0`), 422, /^version: /);
  await expectError(await page.request.get(`${api}/9`), 404, /^version: this flow has no version 9\./);
  await expectError(await page.request.post(`${api}/x/restore`), 422, /^version: /);
  await expectError(await page.request.post(`${api}/9/restore`), 404, /no version 9/);
  await expectError(await page.request.get("/api/flows/no-such-flow/versions"), 404, /no-such-flow/);
  await expectError(await page.request.post("/api/threads", { data: { flowId, task: READ_TASK, version: 0 } }), 422, /^version: /);
  await expectError(await page.request.post("/api/threads", { data: { flowId, task: READ_TASK, version: "1" } }), 422, /^version: /);
  await expectError(await page.request.post("/api/threads", { data: { flowId, task: READ_TASK, version: 3 } }), 404, /^version: this flow has no version 3\./);

  // The move shows as "moved", apart from data changes.
  await page.goto(`/flows/${flowId}/versions/compare?from=1&to=2`);
  const compare = new ComparePage(page);
  await expect(compare.node("supervisor")).toHaveAttribute("data-change", "moved");
  await expect(compare.item("supervisor")).toHaveAttribute("data-change", "moved");
  await expect(compare.item("supervisor").getByTestId("diff-moved")).toHaveText("moved from (200, 120) to (200, 320)");
  await expect(compare.fields()).toHaveCount(0);

  // A viewer of the demo workspace: sees the history, no restore buttons, runs disabled; the API says 403.
  const viewer = await browser.newContext({ baseURL });
  try {
    const vpage = await viewer.newPage();
    await new SignInPage(vpage).signInAndWait(VIEWER.email, VIEWER.password);
    const versions = new VersionsPage(vpage);
    await versions.open(flowId);
    await expect(versions.rows()).toHaveCount(2);
    await expect(vpage.locator('[data-testid^="restore-version-"]')).toHaveCount(0);
    await expect(vpage.getByTestId("run-any-version").getByTestId("run-start")).toBeDisabled();
    await expectError(await vpage.request.post(`${api}/1/restore`), 403, /viewer/);
    expect((await vpage.request.get(`${api}/2`)).status()).toBe(200);
  } finally {
    await viewer.close();
  }
  // Nothing was restored.
  expect(((await (await page.request.get(api)).json()) as { versions: unknown[] }).versions).toHaveLength(2);
});
