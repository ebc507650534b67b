import { expect, test } from "./fixtures";
import { DEMO, FlowsPage, RunPage, SignInPage } from "./pages/app";
import { MemoryPage } from "./pages/memory-page";
import { RunViewPage } from "./pages/run-view";

/**
 * The app's finish: the sign-in form keeps the email, every page has the favicon, the theme
 * colours and a title of its own, dark mode follows the system, outcomes show as toasts,
 * sizes read one way, icons come from the icon set (no emoji glyphs that need a font), and
 * times render in the viewer's time zone without a hydration error. The browser runs in a
 * time zone far from the server's (UTC), so a time rendered on the server would mismatch.
 */
test.use({ timezoneId: "Asia/Kolkata", locale: "en-GB" });

/** Emoji and pictographs that render as empty boxes without an emoji font. */
const EMOJI = /[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}]/u;

test("a wrong password keeps the email in the form, and the message has no markup", async ({ page }) => {
  await new SignInPage(page).signIn(DEMO.email, "not-the-password");
  const error = page.getByTestId("sign-in-error");
  await expect(error).toHaveText("Wrong email or password.");
  expect(await error.textContent()).not.toContain("`");
  await expect(page.getByTestId("sign-in-email")).toHaveValue(DEMO.email);
  await expect(page.getByTestId("sign-in-password")).toHaveValue("");
  // The kept email signs in with the right password.
  await page.getByTestId("sign-in-password").fill(DEMO.password);
  await page.getByTestId("sign-in-submit").click();
  await page.waitForURL(/\/flows$/);
});

test("every page has the favicon, theme colours for light and dark, and a title of its own", async ({ page }) => {
  await page.goto("/sign-in");
  await expect(page).toHaveTitle("Sign in · Phylactery");
  const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(icon).toMatch(/^\/icon\.svg/);
  const res = await page.request.get(icon ?? "");
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toContain("image/svg+xml");
  expect(await res.text()).toContain("prefers-color-scheme: dark");
  const apple = await page.locator('link[rel="apple-touch-icon"]').first().getAttribute("href");
  expect((await page.request.get(apple ?? "")).status()).toBe(200);
  const themes = await page.locator('meta[name="theme-color"]').evaluateAll((m) => m.map((e) => `${e.getAttribute("media")} ${e.getAttribute("content")}`));
  expect(themes).toEqual(["(prefers-color-scheme: light) #f7f7f9", "(prefers-color-scheme: dark) #14161a"]);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute("content", /policies/);

  await new SignInPage(page).signInAndWait();
  const titles: [string, string][] = [
    ["/memory", "Memory · Phylactery"],
    ["/settings", "Settings · Phylactery"],
    ["/settings/mcp", "MCP servers · Phylactery"],
  ];
  for (const [path, title] of titles) {
    await page.goto(path);
    await expect(page).toHaveTitle(title);
    // No pictograph on the page depends on an emoji font: icons are drawn (SVG).
    expect(await page.locator("body").innerText()).not.toMatch(EMOJI);
  }
  await expect(page.locator(".topbar .brand svg")).toBeVisible();
});

test("dark mode follows the system: page, cards, text and buttons change colour", async ({ browser }) => {
  const colours = async (colorScheme: "light" | "dark") => {
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    await page.goto("/sign-in");
    const read = await page.evaluate(() => {
      const style = (sel: string) => getComputedStyle(document.querySelector(sel) as Element);
      return { bg: style("body").backgroundColor, fg: style("body").color, card: style(".card").backgroundColor, button: style("button").color };
    });
    await context.close();
    return read;
  };
  expect(await colours("light")).toEqual({ bg: "rgb(247, 247, 249)", fg: "rgb(28, 31, 36)", card: "rgb(255, 255, 255)", button: "rgb(255, 255, 255)" });
  expect(await colours("dark")).toEqual({ bg: "rgb(20, 22, 26)", fg: "rgb(232, 233, 238)", card: "rgb(29, 32, 38)", button: "rgb(20, 22, 26)" });
});

test("an outcome shows as a toast, announced by a live region", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  const memory = new MemoryPage(page);
  await memory.open();
  await memory.addFact("Toast check: the release train leaves on Thursdays");
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Fact added to the workspace's memory." });
  await expect(toast).toBeVisible();
  await expect(page.locator('section[aria-live="polite"]').filter({ has: toast })).toHaveCount(1);
});

test("a run: sizes in one format, icons drawn, times in the viewer's zone after hydration", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  const flows = new FlowsPage(page);
  await flows.newFromTemplate();
  await flows.startRun("List the files in the workspace");
  await new RunPage(page).waitForStatus(/completed|awaiting approval/i);

  // A file's size is in bytes, one format: "392 B", "1.87 kB"; the exact count is in its title.
  const size = page.getByTestId("ws-file-size-notes.md");
  await expect(size).toHaveText(/^\d+(\.\d+)? (B|kB)$/);
  await expect(size).toHaveAttribute("title", /^\d+ bytes$/);
  // The plan's step statuses are drawn icons, not font glyphs.
  await expect(page.getByTestId("plan-step").first().locator("svg")).toHaveCount(1);
  expect(await page.getByTestId("plan").innerText()).not.toMatch(/[○◐●✕]/);

  // Reloaded (server-rendered, then hydrated): checkpoint times show in the viewer's zone, UTC in the title.
  await page.reload();
  const view = new RunViewPage(page);
  await view.openCheckpoints();
  const time = view.rows().first().locator("time");
  await expect(time).toHaveAttribute("title", /UTC$/);
  await expect(time).not.toHaveText(/UTC/);
  const iso = (await time.getAttribute("datetime")) ?? "";
  const local = new Date(iso).toLocaleTimeString("en-GB", { timeZone: "Asia/Kolkata", timeStyle: "medium" });
  await expect(time).toHaveText(local);

  // The dashboard says how long ago it started, in the browser.
  await page.goto("/flows");
  await expect(page.locator('[data-testid^="thread-row-"]').first().locator("td").nth(3)).toContainText(/just now|min ago/);
});
