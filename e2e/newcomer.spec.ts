import type { Browser, Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { InboxPage, runUntilApproval } from "./pages/approvals";
import { DEMO, FlowsPage, RunPage, SignInPage } from "./pages/app";
import { type Box, EditorPage } from "./pages/editor";
import { InspectorPanel } from "./pages/inspector";

/**
 * What a newcomer meets first (issue 21, "the newcomer's smaller cuts"): nodes dropped from
 * the palette never land on top of another; laying out a saved flow does not hold back Run;
 * the Decision select shows its whole value; a viewer's New flow dialog says where the flow
 * goes; an inbox decision is confirmed with a link to the run, and an open run view shows
 * its result within seconds; at 390 px wide nothing overflows the page.
 */

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function signedInPage(browser: Browser, who: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await new SignInPage(page).signInAndWait(who.email, who.password);
  return page;
}

/** A JSON request with the page's cookies, from the app's own origin (as the app's forms send it). */
async function post(page: Page, url: string, data: unknown) {
  const origin = new URL(page.url()).origin;
  return page.request.post(url, { data, headers: { origin, "sec-fetch-site": "same-origin" } });
}

/** True when the text of every option of a select fits in the select's box (none is cut). */
async function optionsFit(select: Locator): Promise<{ text: string; fits: boolean }[]> {
  return select.evaluate((el) => {
    const s = el as HTMLSelectElement;
    const style = getComputedStyle(s);
    const ctx = document.createElement("canvas").getContext("2d");
    if (!ctx) throw new Error("no canvas");
    ctx.font = style.font;
    // The room for text: the inner width less the padding and the drop-down arrow (about 20 px).
    const room = s.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight) - 20;
    return [...s.options].map((o) => ({ text: o.text, fits: ctx.measureText(o.text).width <= room }));
  });
}

test.describe("the editor", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await new SignInPage(page).signInAndWait();
    await new FlowsPage(page).newFromTemplate();
  });

  test("nodes dropped onto other nodes are moved off them, near the drop point", async ({ page }) => {
    const editor = new EditorPage(page);
    const canvas = await editor.canvas().boundingBox();
    if (!canvas) throw new Error("no canvas");
    // Three Agents dropped on the middle of the Assistant, a Tool on the middle of the Supervisor.
    const target = await editor.box("assistant");
    const at = { x: target.x + target.width / 2 - canvas.x, y: target.y + target.height / 2 - canvas.y };
    for (const id of ["agent-1", "agent-2", "agent-3"]) {
      await editor.dragFromPalette("agent", at);
      await expect(editor.node(id)).toBeVisible();
    }
    const sup = await editor.box("supervisor");
    await editor.dragFromPalette("tool", { x: sup.x + sup.width / 2 - canvas.x, y: sup.y + sup.height / 2 - canvas.y });
    await expect(editor.node("tool-1")).toBeVisible();
    await editor.settle();
    const ids = await editor.nodeIds();
    const boxes = await Promise.all(ids.map(async (id) => ({ id, box: await editor.box(id) })));
    const overlapping = boxes.flatMap((a, i) =>
      boxes
        .slice(i + 1)
        .filter((b) => overlaps(a.box, b.box))
        .map((b) => `${a.id} on ${b.id}`),
    );
    expect(overlapping).toEqual([]);
    // Still near where it was dropped: within two node heights of the drop point.
    const first = await editor.box("agent-1");
    expect(Math.hypot(first.x + first.width / 2 - (canvas.x + at.x), first.y + first.height / 2 - (canvas.y + at.y))).toBeLessThan(first.height * 2 + first.width);
  });

  test("laying out a saved flow is an edit to save, but it does not hold back Run", async ({ page }) => {
    const editor = new EditorPage(page);
    await expect(editor.runButton()).toBeEnabled();
    await editor.toolbarButton("auto-layout").click();
    await expect(editor.dirty()).toBeVisible();
    // The saved version runs the same: Run stays on, with no "Save first".
    await expect(editor.runButton()).toBeEnabled();
    await expect(page.getByTestId("run-blocked-reason")).toHaveCount(0);
    // Shift+L is the same edit; a change the run would see still asks to save first.
    await page.keyboard.press("Shift+L");
    await expect(editor.runButton()).toBeEnabled();
    const inspector = new InspectorPanel(page);
    await inspector.select("assistant");
    await inspector.field("agent", "name").fill("Assistant two");
    await expect(editor.runButton()).toHaveAttribute("title", /Save first/);
    await expect(editor.runButton()).toBeDisabled();
  });

  test("the policy rule's Decision, Risk and Permission selects show their whole values", async ({ page }) => {
    const inspector = new InspectorPanel(page);
    await inspector.select("policy");
    for (const testId of ["inspector-rule-decision-2", "inspector-rule-risk-2", "inspector-rule-permission-2"]) {
      const cut = (await optionsFit(page.getByTestId(testId))).filter((o) => !o.fits);
      expect(cut, `${testId}: options cut`).toEqual([]);
    }
    await expect(inspector.ruleDecision(2)).toHaveValue("AUTH_REQUIRED");
  });
});

test("a viewer's New flow dialog says the flow goes into a new workspace of their own, named, and why not the shared one", async ({ page, browser }) => {
  // A fresh account, viewer of Demo workspace (the seeded viewer keeps a single workspace for other tests).
  await new SignInPage(page).signInAndWait();
  const email = `viewer-${Date.now()}@phylactery.dev`;
  const password = "a long enough password";
  expect((await post(page, "/api/admin/users", { email, name: "Vera", password })).status()).toBe(201);
  const { workspaces } = (await (await page.request.get("/api/workspaces")).json()) as { workspaces: { id: string; name: string }[] };
  const demoWs = workspaces.find((w) => w.name === "Demo workspace")?.id ?? "";
  expect((await post(page, `/api/workspaces/${demoWs}/members`, { email, role: "viewer" })).status()).toBe(202);
  const vera = await signedInPage(browser, { email, password });
  const { invitations } = (await (await vera.request.get("/api/invitations")).json()) as { invitations: { id: string }[] };
  expect((await post(vera, `/api/invitations/${invitations[0]?.id}/accept`, {})).status()).toBe(200);

  await vera.goto("/flows");
  const dialog = await new FlowsPage(vera).openNewFlow();
  // Nothing to pick: Demo workspace is not offered, and the dialog says where the flow goes and why.
  await expect(dialog.getByTestId("new-flow-workspace")).toHaveCount(0);
  const where = dialog.getByTestId("new-flow-where");
  await expect(where).toContainText("It goes into a new workspace of your own, “Vera's workspace”, which this flow creates; you are its owner.");
  await expect(where).toContainText("Not offered: “Demo workspace” (you are a viewer); only owners create flows there.");
  await dialog.getByTestId("new-flow-name").fill("My notes");
  await dialog.getByTestId("new-flow-create").click();
  await vera.waitForURL(/\/flows\/[^/]+$/);
  const flowId = vera.url().split("/").pop() ?? "";
  await vera.goto("/flows");
  await expect(vera.getByTestId(`flow-${flowId}`).getByTestId("flow-workspace")).toHaveText("Vera's workspace");
  // The next time, the workspace exists: the dialog names it as theirs.
  await expect((await new FlowsPage(vera).openNewFlow()).getByTestId("new-flow-where")).toContainText("It goes into “Vera's workspace”, your own workspace.");
  await vera.context().close();
});

test("an inbox decision is confirmed with a link to the run, and the owner's open run view shows the result within seconds", async ({ page, browser }) => {
  test.setTimeout(240_000);
  await new SignInPage(page).signInAndWait();
  for (let trial = 1; trial <= 3; trial++) {
    const { threadId } = await runUntilApproval(page);
    // The owner decides in the inbox: in another tab of the same browser (trial 2), or in another browser.
    const approver = trial === 2 ? await page.context().newPage() : await signedInPage(browser, { email: DEMO.email, password: DEMO.password });
    const inbox = new InboxPage(approver);
    await inbox.open();
    await inbox.itemOf(threadId).getByTestId("approve").click();
    const notice = approver.getByTestId("decision-notice");
    await expect(notice, `trial ${trial}`).toContainText("Approved: write_file");
    await expect(notice.getByTestId("decision-notice-run")).toHaveAttribute("href", `/threads/${threadId}`);
    // The run view that was open all along follows the resumed run: completed within 5 s.
    await new RunPage(page).waitForStatus("completed", 5_000);
    await expect(page.locator('[data-testid="tool-call"][data-tool="write_file"]').last()).toHaveAttribute("data-status", "done");
    // The confirmation stays after the item left the pending list, and says how the run ended.
    await expect(inbox.itemOf(threadId)).toHaveCount(0);
    await expect(notice.getByTestId("decision-notice-outcome")).toHaveText("The run is now completed.");
    await notice.getByTestId("decision-notice-run").click();
    await approver.waitForURL(new RegExp(`/threads/${threadId}$`));
    await new RunPage(approver).waitForStatus("completed");
    if (trial === 2) await approver.close();
    else await approver.context().close();
  }
});

/** Makes the page's tab hidden or shown, as switching tabs does (the app reads document.visibilityState). */
async function setVisible(page: Page, visible: boolean): Promise<void> {
  await page.evaluate((v) => {
    Object.defineProperty(document, "visibilityState", { value: v ? "visible" : "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
  }, visible);
}

test("a run view hidden while the decision's run went to its end shows that run within seconds of being shown again", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await new SignInPage(page).signInAndWait();
  const { threadId } = await runUntilApproval(page);
  // The owner switches to the inbox tab: the run view's tab is hidden (it lets its live connections go).
  await setVisible(page, false);
  const inbox = new InboxPage(await signedInPage(browser, { email: DEMO.email, password: DEMO.password }));
  await inbox.open();
  await inbox.itemOf(threadId).getByTestId("approve").click();
  await expect(inbox.page.getByTestId("decision-notice-outcome")).toHaveText("The run is now completed.", { timeout: 30_000 });
  // Back on the run view's tab: the run that started and ended meanwhile is shown, within 5 s.
  // The browser fires visibilitychange again when another window takes or gives focus: one
  // arrives while the view's request for that run is on its way (held for a moment here), and
  // must not cut it short.
  let held: () => void = () => {};
  const follow = new Promise<void>((resolve) => {
    held = resolve;
  });
  await page.route(/\/stream\?runId=/, async (route) => {
    held();
    await new Promise((r) => setTimeout(r, 1_000));
    await route.continue().catch(() => {});
  });
  await setVisible(page, true);
  await follow;
  await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
  await new RunPage(page).waitForStatus("completed", 5_000);
  await expect(page.locator('[data-testid="tool-call"][data-tool="write_file"]').last()).toHaveAttribute("data-status", "done");
  await inbox.page.context().close();
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  /** The page scrolls no wider than the screen, and `el` ends inside it. */
  async function fits(page: Page, el?: Locator): Promise<void> {
    const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(scroll, `page ${page.url()} is ${scroll} px wide for ${client}`).toBeLessThanOrEqual(client);
    if (!el) return;
    const box = await el.boundingBox();
    if (!box) throw new Error("not shown");
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(client);
    expect(await el.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  }

  test("the navigation wraps instead of overflowing, and the run view's plan card is not clipped", async ({ page }) => {
    await new SignInPage(page).signInAndWait();
    await fits(page, page.locator("header.topbar"));
    for (const link of ["Flows & runs", "Approvals", "Memory", "API", "Settings"]) {
      const box = await page.locator("header.topbar nav").getByRole("link", { name: link }).boundingBox();
      expect(box && box.x + box.width <= 390, `${link} in view`).toBe(true);
    }
    await runUntilApproval(page);
    await expect(page.getByTestId("plan")).toBeVisible();
    await fits(page, page.getByTestId("plan"));
    for (const step of await page.getByTestId("plan-step").all()) await fits(page, step);
  });
});
