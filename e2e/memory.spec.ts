import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { expect, test } from "./fixtures";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";
import { VIEWER } from "./pages/members";
import { MemoryPage, ThreadMemoryTab } from "./pages/memory-page";

/** The e2e server's WORKSPACES_DIR (playwright.config.ts), relative to the repository. */
const E2E_WORKSPACES = ".data/e2e-workspaces";

/**
 * Memory: the memory page (add a fact by hand, search it, forget it with a
 * confirmation; viewers read only), and a finished thread's Memory tab (short-term
 * entries, propose facts and accept one, its provenance on the memory page), "Memory
 * injected" in the run view, and deleting a thread.
 */
test.describe("memory", () => {
  test("add a fact by hand, find it by search, forget it", async ({ page, browser }) => {
    await new SignInPage(page).signInAndWait();
    await page.getByRole("link", { name: "Memory", exact: true }).click();
    await page.waitForURL(/\/memory$/);
    const memory = new MemoryPage(page);
    await expect(page.getByTestId("memory-explainer")).toBeVisible();

    // An empty fact is refused inline, before any request.
    await page.getByTestId("add-fact-submit").click();
    await expect(page.getByTestId("add-fact-content-error")).toContainText("Write the fact");

    const content = "Quarterly reports in this workspace use British spelling";
    await memory.addFact(content, "Style, reports");
    const fact = memory.fact(content);
    await expect(fact).toHaveAttribute("data-origin", "manual");
    await expect(fact).toHaveAttribute("data-status", "accepted");
    await expect(fact.getByTestId("fact-origin")).toHaveText("added by hand");
    await expect(fact.getByTestId("fact-by")).toContainText("demo@phylactery.dev");
    await expect(fact.getByTestId("fact-tags")).toContainText("reports");

    // Search finds it, with its score and how it was found.
    await memory.search("British spelling");
    await expect(memory.facts()).toHaveCount(1);
    await expect(fact.getByTestId("fact-score")).toContainText("score");
    await expect(fact.getByTestId("fact-score")).toHaveAttribute("data-via", /lexical/);

    // A viewer reads it but may not change it: the buttons say why.
    const viewer = await (await browser.newContext()).newPage();
    await new SignInPage(viewer).signInAndWait(VIEWER.email, VIEWER.password);
    const asViewer = new MemoryPage(viewer);
    await asViewer.open();
    await expect(asViewer.fact(content).getByTestId("fact-forget")).toBeDisabled();
    await expect(asViewer.fact(content).getByTestId("fact-readonly")).toContainText("viewer");
    await expect(viewer.getByTestId("add-fact-submit")).toBeDisabled();
    await viewer.context().close();

    // Forget asks first; Escape cancels and keeps the fact.
    await fact.getByTestId("fact-forget").click();
    const dialog = memory.forgetDialog();
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("promoted from the same source");
    await expect(dialog).toContainText("source thread still holds its own history");
    await expect(dialog.getByTestId("forget-dialog-cancel")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(fact).toBeVisible();

    await fact.getByTestId("fact-forget").click();
    await dialog.getByTestId("forget-dialog-confirm").click();
    await expect(page.getByTestId("memory-notice")).toContainText("forgotten");
    await expect(memory.facts()).toHaveCount(0);
    await expect(page.getByTestId("memory-empty-filtered")).toBeVisible();
    await page.getByTestId("memory-clear-filters").click();
    await expect(memory.fact(content)).toHaveCount(0);
  });

  test("a finished thread: memory injected, short-term entries, propose and accept a fact, delete the thread", async ({ page, browser, consoleErrors }) => {
    await new SignInPage(page).signInAndWait();
    const memory = new MemoryPage(page);
    await memory.open();
    const known = "Summaries of ops-sync-notes.md are written as short bullet points";
    await memory.addFact(known, "notes");

    const flows = new FlowsPage(page);
    await flows.newFromTemplate();
    // A thread whose workspace holds meeting notes no other spec reads, so the facts this run
    // proposes are new to the shared e2e workspace (promote skips facts it already knows).
    const flowId = new URL(page.url()).pathname.split("/").at(-1);
    const task = "Summarize ops-sync-notes.md into ops-summary.md";
    const created = await page.request.post("/api/threads", { data: { flowId, task } });
    expect(created.status()).toBe(201);
    const { threadId } = (await created.json()) as { threadId: string };
    const workspace = path.join(E2E_WORKSPACES, threadId);
    mkdirSync(workspace, { recursive: true, mode: 0o700 });
    copyFileSync("tests/fixtures/documents/ops-sync-notes.md", path.join(workspace, "ops-sync-notes.md"));
    await page.goto(`/threads/${threadId}`);
    await page.getByTestId("composer-input").fill(task);
    await page.getByTestId("composer-send").click();
    const run = new RunPage(page);
    await run.waitForStatus("awaiting approval");
    await run.approvalCard().getByTestId("approve").click();
    await run.waitForStatus("completed");

    // Each step shows, folded, the memory injected into its agent's context.
    const injected = page.locator('[data-testid="step-event"] [data-testid="memory-injected"]').first();
    await expect(injected).toContainText("Memory injected");
    await injected.locator("summary").click();
    await expect(injected.getByTestId("memory-injected-fact").filter({ hasText: known })).toBeVisible();
    // …and the same after a reload (replayed from the stored run events).
    await page.reload();
    await run.waitForStatus("completed");
    await expect(page.getByTestId("memory-injected").first()).toBeVisible();

    const tab = new ThreadMemoryTab(page);
    await tab.open();
    await expect(tab.entries().first()).toBeVisible();

    // A completed run writes the summary and proposes the facts its steps found (decisions,
    // dates, owners of work), never its bookkeeping ("Wrote N bytes"), just after it ends.
    await expect(async () => {
      await page.getByTestId("thread-memory-refresh").click();
      expect(await tab.proposed().count()).toBeGreaterThanOrEqual(2);
    }).toPass();
    const count = await tab.proposed().count();
    for (const text of await tab.proposed().getByTestId("proposed-fact-content").allTextContents()) {
      expect(text).toMatch(/^ops-sync-notes\.md: /);
      expect(text).not.toMatch(/\bWrote \d+ bytes\b|\bRead \d+ characters\b/);
    }
    await expect(page.getByTestId("thread-summary-text")).toContainText(task);
    await page.getByTestId("thread-summarize").click();
    await expect(tab.notice()).toContainText("Summary written");
    // Proposing again finds nothing new.
    await page.getByTestId("thread-promote").click();
    await expect(tab.notice()).toContainText("Nothing new to propose");
    await expect(tab.proposed()).toHaveCount(count);
    // Dismiss asks first, naming what else goes; Cancel keeps the proposal.
    await tab.proposed().first().getByTestId("proposed-dismiss").click();
    const dismiss = page.getByTestId("dismiss-dialog");
    await expect(dismiss).toBeVisible();
    await expect(dismiss).toContainText("every other fact from the same step");
    await dismiss.getByTestId("dismiss-dialog-cancel").click();
    await expect(dismiss).toBeHidden();
    await expect(tab.proposed()).toHaveCount(count);

    // Accept one (forgetting a proposal forgets every fact of its step, accepted ones too:
    // lib/memory/erase.int.test.ts covers that; here the accepted fact must stay).
    const proposedText = (await tab.proposed().first().getByTestId("proposed-fact-content").textContent()) ?? "";
    expect(proposedText.length).toBeGreaterThan(0);
    await tab.proposed().first().getByTestId("proposed-accept").click();
    await expect(tab.notice()).toContainText("accepted");
    await expect(tab.proposed()).toHaveCount(count - 1);

    // The accepted fact is on the memory page, linked to its source thread.
    await page.getByTestId("thread-memory-notice-link").click();
    await page.waitForURL(/\/memory\?.*fact=/);
    const promoted = memory.facts().first();
    await expect(promoted).toHaveAttribute("data-origin", "promoted");
    await expect(promoted).toHaveAttribute("data-status", "accepted");
    await expect(promoted.getByTestId("fact-content")).toHaveText(proposedText);
    await expect(promoted.getByTestId("fact-source-link")).toHaveAttribute("href", `/threads/${threadId}`);
    await promoted.getByTestId("fact-source-link").click();
    await page.waitForURL(`**/threads/${threadId}`);

    // Clear the thread's short-term memory (asks first).
    await tab.open();
    await page.getByTestId("short-term-clear").click();
    await page.getByTestId("clear-memory-dialog-confirm").click();
    await expect(tab.notice()).toContainText("Cleared");
    await expect(page.getByTestId("short-term-empty")).toBeVisible();

    // A viewer of the workspace reads the thread's memory; its buttons are disabled, with the reason.
    const viewer = await (await browser.newContext()).newPage();
    await new SignInPage(viewer).signInAndWait(VIEWER.email, VIEWER.password);
    await viewer.goto(`/threads/${threadId}`);
    await expect(viewer.getByTestId("delete-thread")).toBeDisabled();
    await expect(viewer.getByTestId("delete-thread-reason")).toContainText("demo@phylactery.dev");
    const viewerTab = new ThreadMemoryTab(viewer);
    await viewerTab.open();
    await expect(viewer.getByTestId("thread-promote")).toBeDisabled();
    await expect(viewer.getByTestId("thread-memory-readonly")).toContainText("viewer");
    await viewer.context().close();

    // Delete the thread: the dialog lists what goes; then the dashboard opens and the thread is gone.
    await page.getByTestId("delete-thread").click();
    const dialog = page.getByTestId("delete-thread-dialog");
    await expect(dialog).toContainText("checkpoints");
    await expect(dialog).toContainText("short-term memory");
    await dialog.getByTestId("delete-thread-dialog-confirm").click();
    await page.waitForURL(/\/flows\?deleted=/);
    await expect(page.getByTestId("thread-deleted-notice")).toContainText("was deleted");
    expect((await page.request.get(`/api/threads/${threadId}/memory`)).status()).toBe(404);
    consoleErrors.allow(/status of 404 .*\/threads\//);
    const gone = await page.goto(`/threads/${threadId}`);
    expect(gone?.status()).toBe(404);

    // The accepted fact stays, its source marked as deleted.
    await memory.open();
    const kept = memory.fact(proposedText);
    await expect(kept.getByTestId("fact-source")).toHaveAttribute("data-deleted", "true");
    await expect(kept.getByTestId("fact-source")).toContainText("thread deleted");
  });
});
