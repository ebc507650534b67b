import { expect, test } from "./fixtures";
import { SignInPage } from "./pages/app";
import { SecretsPage } from "./pages/secrets";

/**
 * Secrets in Settings (docs/secrets.md "Managing secrets"): the owner is told what each field
 * needs, adds a secret whose value is never shown again, replaces its hosts, thinks better of
 * deleting it once (Keep), then deletes it.
 */
test("an owner adds a secret, replaces its hosts and deletes it, the value never shown", async ({ page }) => {
  const VALUE = "e2e-canary-value-4242";
  await new SignInPage(page).signInAndWait();
  const secrets = new SecretsPage(page);
  await secrets.open();
  const ws = secrets.workspace("Demo workspace");
  await expect(ws.getByTestId("secrets-empty")).toHaveText("No secrets yet: add one below.");

  await secrets.add(ws, {});
  await expect(ws.getByTestId("secrets-error")).toHaveText("name: enter a name such as API_TOKEN.");
  await secrets.add(ws, { name: "api_token" });
  await expect(ws.getByTestId("secret-add-name")).toHaveValue("API_TOKEN");
  await expect(ws.getByTestId("secrets-error")).toHaveText("value: enter the value.");
  await secrets.add(ws, { value: VALUE });
  await expect(ws.getByTestId("secrets-error")).toContainText("hosts: name at least one host");
  await secrets.add(ws, { hosts: "api.example.com" });

  const row = secrets.row(ws, "API_TOKEN");
  await expect(row).toContainText("api.example.com");
  await expect(row).toContainText("never");
  await expect(ws.getByTestId("secrets-error")).toHaveCount(0);
  await expect(ws.getByTestId("secret-add-value")).toHaveValue("");
  await page.reload();
  await expect(page.getByText(VALUE)).toHaveCount(0);

  await row.getByTestId("secret-replace-API_TOKEN").click();
  await expect(ws.getByTestId("secret-replace-hosts-API_TOKEN")).toHaveValue("api.example.com");
  await ws.getByTestId("secret-replace-hosts-API_TOKEN").fill("api.example.com, *.example.org");
  await ws.getByTestId("secret-replace-submit-API_TOKEN").click();
  await expect(row).toContainText("api.example.com, *.example.org");
  await expect(ws.getByTestId("secret-replace-value-API_TOKEN")).toHaveCount(0);

  await row.getByTestId("secret-delete-API_TOKEN").click();
  await expect(row.getByTestId("secret-delete-confirm-API_TOKEN")).toHaveText("Delete API_TOKEN");
  await row.getByRole("button", { name: "Keep" }).click();
  await expect(row.getByTestId("secret-delete-confirm-API_TOKEN")).toHaveCount(0);
  await row.getByTestId("secret-delete-API_TOKEN").click();
  await row.getByTestId("secret-delete-confirm-API_TOKEN").click();
  await expect(ws.getByTestId("secrets-empty")).toBeVisible();
  await expect(row).toHaveCount(0);
});
