import { expect, test } from "./fixtures";
import { SignInPage } from "./pages/app";

test("health answers ok once the database is reachable; with the runs in a worker child, it says the child is up", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { ok: boolean; worker?: unknown };
  if (body.worker === undefined) {
    expect(body).toEqual({ ok: true });
    return;
  }
  // RUN_IN=process (docs/durability.md#runs-are-jobs, "The worker child"): the web process answers before its worker
  // child has loaded; the child says it consumes the queue soon after, and was never restarted.
  await expect.poll(async () => (await request.get("/api/health")).json(), { timeout: 30_000 }).toEqual({ ok: true, worker: { up: true, restarts: 0 } });
});

test("pages need a session: the root sends a signed-out visitor to sign-in", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);
  await expect(page.getByTestId("sign-in-form")).toBeVisible();
});

test("wrong password is refused with a message", async ({ page }) => {
  await new SignInPage(page).signIn("demo@phylactery.dev", "wrong-password");
  await expect(page.getByTestId("sign-in-error")).toContainText("Wrong email or password");
});

test("API routes answer 401 without a session", async ({ request }) => {
  const res = await request.post("/api/threads", { data: { flowId: "x", task: "y" } });
  expect(res.status()).toBe(401);
  expect((await res.json()).error.reason).toBe("signed_out");
});
