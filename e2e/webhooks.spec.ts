import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { docsVerifySnippet } from "../lib/webhooks/docs-snippet";
import { expect, test } from "./fixtures";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";
import { WebhooksPage } from "./pages/webhooks";

/**
 * Webhooks in Settings (docs/webhooks.md): the owner adds one for a receiver on loopback (the
 * e2e operator opened 127.0.0.1), copies the secret shown once, a run stops at an approval,
 * and the delivery log shows the failed first attempt, the retry that succeeded and a
 * redelivery; then the webhook is disabled and deleted.
 */
test("an owner adds a webhook, sees its deliveries with a retry, redelivers, disables and deletes it", async ({ page, context }) => {
  test.setTimeout(90_000);
  const verify = docsVerifySnippet();
  const hits: { headers: IncomingHttpHeaders; body: string; ok: boolean }[] = [];
  let secret = "";
  const answers = [500];
  const receiver = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => {
      body += c;
    });
    req.on("end", () => {
      const flat = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      hits.push({ headers: req.headers, body, ok: verify(secret, flat, body) });
      res.writeHead(answers.shift() ?? 204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  try {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await new SignInPage(page).signInAndWait();
    const hooks = new WebhooksPage(page);
    await hooks.open();
    const ws = hooks.workspace("Demo workspace");
    await expect(ws.getByTestId("webhooks-empty")).toBeVisible();

    await hooks.add(ws, url, ["approval.required"]);
    const shown = ws.getByTestId("webhook-secret-value");
    await expect(shown).toHaveText(/^whsec_/);
    secret = (await shown.textContent()) ?? "";
    await ws.getByTestId("webhook-secret-copy").click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await ws.getByTestId("webhook-secret-done").click();
    await expect(ws.getByTestId("webhook-secret")).toHaveCount(0);
    const row = hooks.row(ws, url);
    await expect(row).toContainText("Approval required");
    await page.reload();
    await expect(page.getByText(secret)).toHaveCount(0);

    const flows = new FlowsPage(page);
    await flows.newFromTemplate("workspace-assistant");
    await flows.startRun("Summarize notes.md into summary.md");
    await new RunPage(page).waitForStatus("awaiting approval");

    // The first attempt got a 500; the retry (about 5 s later) a 204.
    await expect.poll(() => hits.length, { timeout: 30_000 }).toBe(2);
    expect(hits.every((h) => h.ok)).toBe(true);
    expect(hits[1]?.headers["webhook-id"]).toBe(hits[0]?.headers["webhook-id"]);
    await hooks.open();
    await hooks.row(ws, url).getByRole("button", { name: "Deliveries" }).click();
    const log = ws.getByTestId("webhook-deliveries");
    const first = log.locator('tr[data-testid^="delivery-row-"]').first();
    await expect(first).toContainText("Approval required");
    await expect(first.locator('[data-testid^="delivery-status-"]')).toHaveText("succeeded");
    await expect(first).toContainText("HTTP 204");
    await expect(first.locator("td").nth(2)).toHaveText("2");

    await first.getByRole("button", { name: "Redeliver" }).click();
    await expect(log.locator('tr[data-testid^="delivery-row-"]')).toHaveCount(2);
    await expect(log.locator('tr[data-testid^="delivery-row-"]').first()).toContainText("(redelivery)");
    await expect.poll(() => hits.length, { timeout: 15_000 }).toBe(3);
    expect(hits[2]?.ok).toBe(true);
    expect(hits[2]?.body).toBe(hits[0]?.body);
    await log.getByTestId("webhook-deliveries-refresh").click();
    await expect(log.locator('tr[data-testid^="delivery-row-"]').first().locator('[data-testid^="delivery-status-"]')).toHaveText("succeeded");
    await page.screenshot({ path: "test-results/webhooks-settings.png", fullPage: true });

    await hooks.row(ws, url).getByRole("button", { name: "Disable" }).click();
    await expect(hooks.row(ws, url).locator('[data-testid^="webhook-state-"]')).toHaveText("disabled");
    await hooks.row(ws, url).getByRole("button", { name: "Delete" }).click();
    await hooks.row(ws, url).locator('[data-testid^="webhook-delete-confirm-"]').click();
    await expect(ws.getByTestId("webhooks-empty")).toBeVisible();
  } finally {
    receiver.close();
  }
});
