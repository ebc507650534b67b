import { expect, test } from "@playwright/test";

test("health answers ok once the database is reachable", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  expect(await res.json()).toEqual({ ok: true });
});

test("the status page shows the seeded database", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Phylactery" })).toBeVisible();
  await expect(page.getByTestId("db-status")).toHaveText("ready");
  await expect(page.getByTestId("status")).toContainText("1 account");
});
