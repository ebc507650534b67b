import { expect, test } from "./fixtures";
import { SignInPage } from "./pages/app";

/**
 * Settings, model providers: a provider's API key is saved, then never shown again — not
 * in the form, not in the page, not in the API — only its last four characters.
 */
test("a provider key is write-only: saved, hinted, never sent back", async ({ page, consoleErrors }) => {
  await new SignInPage(page).signInAndWait();
  await page.getByRole("link", { name: "Settings" }).click();
  const card = page.getByTestId("provider-card-openai-compatible");
  await card.getByTestId("provider-baseurl-openai-compatible").fill("http://127.0.0.1:9/v1");
  await card.getByTestId("provider-model-openai-compatible").fill("llama3.1");
  await card.getByTestId("provider-key-openai-compatible").fill("sk-e2e-secret-7777");
  await card.getByTestId("provider-save-openai-compatible").click();
  await expect(card.getByTestId("provider-status-openai-compatible")).toHaveText("Saved.");

  await page.reload();
  const key = page.getByTestId("provider-key-openai-compatible");
  await expect(key).toHaveValue("");
  await expect(key).toHaveAttribute("placeholder", /stored …7777/);
  expect(await page.content()).not.toContain("sk-e2e-secret");
  const api = await page.request.get("/api/settings/providers");
  expect(await api.text()).not.toContain("sk-e2e-secret");
  expect((await api.json()).providers).toMatchObject([{ provider: "openai-compatible", hasKey: true, keyHint: "…7777", model: "llama3.1" }]);

  // Bad input names the field.
  consoleErrors.allow(/status of 422 .*\/api\/settings\/providers/);
  await page.getByTestId("provider-baseurl-openai-compatible").fill("not a url");
  await page.getByTestId("provider-save-openai-compatible").click();
  await expect(page.getByTestId("provider-card-openai-compatible").getByRole("alert")).toContainText("baseUrl");

  await page.getByTestId("provider-remove-openai-compatible").click();
  await expect(page.getByTestId("provider-remove-openai-compatible")).toHaveCount(0);
});
