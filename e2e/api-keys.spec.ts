import { expect, test } from "./fixtures";
import { ApiKeysPage } from "./pages/api-keys";
import { SignInPage } from "./pages/app";

/**
 * Settings, API keys (docs/api.md "API keys"): a key is made in Settings and shown once; code
 * with no session (this test's own fetch, no cookies) reads a JSON route with it; revoked in
 * Settings, the next call is refused with 401 invalid_api_key.
 */
test("an API key is made in Settings, shown once, works from code, and stops working once revoked", async ({ page, baseURL }) => {
  await new SignInPage(page).signInAndWait();
  const keys = new ApiKeysPage(page);
  await keys.open();
  const name = `e2e ${Date.now()}`;
  const key = await keys.create(name);
  await expect(keys.section.getByTestId("api-key-created")).toContainText("will not be shown again");
  await expect(keys.row(name)).toContainText(key.slice(0, 12));
  await expect(keys.row(name)).toContainText("All my workspaces");
  await expect(keys.section.getByTestId(`api-key-last-used-${name}`)).toHaveText("never");

  // Shown once: after a reload the page holds only its prefix.
  await page.reload();
  await expect(keys.section.getByTestId("api-key-value")).toHaveCount(0);
  expect(await page.content()).not.toContain(key);
  await expect(keys.row(name)).toContainText(`${key.slice(0, 12)}…`);

  // From code, with no session at all.
  const call = () => fetch(`${baseURL}/api/approvals?status=all`, { headers: { authorization: `Bearer ${key}` } });
  const ok = await call();
  expect(ok.status).toBe(200);
  const inbox = (await ok.json()) as { items: unknown[]; flows: unknown[] };
  expect(Array.isArray(inbox.items)).toBe(true);
  expect(Array.isArray(inbox.flows)).toBe(true);
  await page.reload();
  await expect(keys.section.getByTestId(`api-key-last-used-${name}`)).not.toHaveText("never");

  await keys.revoke(name);
  const refused = await call();
  expect(refused.status).toBe(401);
  expect(((await refused.json()) as { error: { reason: string } }).error.reason).toBe("invalid_api_key");
});
