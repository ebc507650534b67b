import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { FlowsPage, RunPage, SignInPage } from "./pages/app";

/**
 * The app passes its own Content Security Policy (docs/security.md "Sign-in"): no page a
 * user opens, and no run that streams, makes the browser report a violation.
 */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to (load|execute|connect|apply|frame)/i.test(m.text())) seen.push(m.text());
  });
  await page.exposeFunction("__cspViolation", (what: string) => seen.push(what));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __cspViolation: (s: string) => void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return seen;
}

test("every main page and a streaming run load without a CSP violation", async ({ page }) => {
  const violations = await watchViolations(page);
  await new SignInPage(page).signInAndWait();
  for (const path of ["/flows", "/approvals", "/memory", "/settings"]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
  }
  const flows = new FlowsPage(page);
  await flows.newFromTemplate();
  await flows.startRun("List the files in the workspace");
  await new RunPage(page).waitForStatus(/completed|awaiting approval/i);
  expect(violations).toEqual([]);
});
