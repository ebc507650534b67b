import { expect, test } from "./fixtures";
import { SignInPage } from "./pages/app";

/**
 * The API reference page: reached from the navigation, it shows the operations of the
 * OpenAPI document grouped by tag, with a table of contents, and links the document itself,
 * which anyone may fetch.
 */
test("the API reference shows how to start a run, and links the public OpenAPI document", async ({ page, request }) => {
  await new SignInPage(page).signInAndWait();
  await page.getByTestId("nav-api-reference").click();
  await expect(page).toHaveURL(/\/api-reference$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("API reference");
  await expect(page.getByTestId("api-intro")).toContainText("Authorization: Bearer");
  await expect(page.getByTestId("api-intro")).toContainText("/api/langgraph");

  // The table of contents jumps to the operation that starts a run.
  await page.getByTestId("api-toc").getByRole("link", { name: "POST /threads/{threadId}/stream" }).click();
  await expect(page).toHaveURL(/#postThreadsByThreadIdStream$/);
  const run = page.getByTestId("operation-postThreadsByThreadIdStream");
  await expect(run).toBeInViewport();
  await expect(run.getByTestId("operation-method")).toHaveText("POST");
  await expect(run.getByTestId("operation-path")).toHaveText("/api/threads/{threadId}/stream");
  await expect(run.getByRole("table")).toContainText("threadId");
  // The body comes from the route's own schema: the input kinds and their fields.
  const body = run.getByTestId("operation-body");
  await expect(body).toContainText('"message"');
  await expect(body).toContainText("approvalId");
  await expect(run).toContainText("text/event-stream");

  const doc = await request.get(
    await page
      .getByTestId("api-openapi-link")
      .getAttribute("href")
      .then((h) => h ?? ""),
  );
  expect(doc.status()).toBe(200);
  expect((await doc.json()).openapi).toMatch(/^3\.1\./);
});
