import { expect, test } from "@playwright/test";
import { type RunningFixture, startMcpFixture } from "../tests/fixtures/mcp-server";
import { FlowsPage, SignInPage } from "./pages/app";
import { InspectorPanel } from "./pages/inspector";
import { McpSettingsPage } from "./pages/mcp";
import { VIEWER } from "./pages/members";

/**
 * MCP servers (issue 6) on the seeded database, against the fixture MCP server (official
 * SDK) over Streamable HTTP on a free port of 127.0.0.1, protected by a bearer token: the
 * demo owner adds it (a missing token is reported with what to do, then set as a secret),
 * sees its tools with their schemas, and finds them in the editor's palette and inspector.
 * Over the API, a bad body is refused naming the field, and a viewer cannot add servers.
 */
const TOKEN = "e2e-token-5b3cc4";
let fixture: RunningFixture;

test.beforeAll(async () => {
  fixture = await startMcpFixture({ token: TOKEN });
});
test.afterAll(async () => {
  await fixture?.stop();
});

test("the owner adds an HTTP MCP server, sees its tools, and finds them in the flow editor", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  const mcp = new McpSettingsPage(page);
  await mcp.open();
  const ws = mcp.workspace("Demo workspace");
  await expect(ws.getByTestId("mcp-empty")).toContainText("Model Context Protocol");

  // Inline errors: the server's 422 lands under the field it names.
  await mcp.addHttp(ws, "Bad Name", fixture.url);
  await expect(mcp.fieldError(ws, "name")).toContainText("lower-case letters");

  // Without the token the server is added with an error that says what to do; setting the header fixes it.
  await mcp.addHttp(ws, "notes", fixture.url);
  const card = mcp.server(ws, "notes");
  await expect(card.getByTestId("mcp-server-error-notes")).toContainText("Authorization");
  await card.getByTestId("mcp-secret-name-notes").fill("Authorization");
  await card.getByTestId("mcp-secret-value-notes").fill(`Bearer ${TOKEN}`);
  await card.getByTestId("mcp-secret-submit-notes").click();
  await expect(card.getByTestId("mcp-server-status-notes")).toContainText("connected");
  await expect(card.getByTestId("mcp-server-error-notes")).toHaveCount(0);
  await expect(card.getByTestId("mcp-secret-notes-Authorization")).toBeVisible();
  await expect(page.getByText(TOKEN)).toHaveCount(0);

  // Its tools, with side-effect flags and input schemas.
  const save = card.getByTestId("mcp-tool-mcp__notes__save_note");
  await expect(save).toContainText("side effect");
  const add = card.getByTestId("mcp-tool-mcp__notes__add");
  await expect(add).toContainText("read-only");
  await add.locator("summary").click();
  await expect(add.locator("pre")).toContainText('"required"');
  await expect(card.getByText("left out", { exact: true })).toBeVisible();

  // The editor's palette lists them under their server; the inspector shows the chosen one.
  await new FlowsPage(page).newFromTemplate();
  await page.getByTestId("palette-catalog").locator("summary").click();
  const group = page.getByTestId("palette-catalog-group-mcp:notes");
  await expect(group).toContainText("MCP server notes");
  await expect(group.getByTestId("palette-catalog-mcp__notes__save_note")).toBeVisible();
  await expect(page.getByTestId("palette-catalog-group-builtin").getByTestId("palette-catalog-read_file")).toBeVisible();
  await expect(page.getByTestId("palette-tool-select").locator('optgroup[label="MCP server notes"] > option[value="mcp__notes__echo"]')).toHaveCount(1);
  await group.getByTestId("palette-catalog-mcp__notes__echo").click();
  await expect(page.getByTestId("palette-tool-select")).toHaveValue("mcp__notes__echo");
  await page.getByTestId("palette-tool").click();
  const inspector = new InspectorPanel(page);
  await inspector.select("tool-1");
  await expect(page.getByTestId("inspector-tool-description")).toHaveText("Repeats the text it is given.");
  await expect(page.getByTestId("inspector-tool-source")).toHaveText("MCP server notes");
  await page.getByTestId("inspector-tool-schema").locator("summary").click();
  await expect(page.getByTestId("inspector-tool-schema").locator("pre")).toContainText('"text"');
});

test("over the API, a bad body is refused naming the field, and a viewer cannot add a server", async ({ page, browser }) => {
  await new SignInPage(page).signInAndWait();
  const mcp = new McpSettingsPage(page);
  await mcp.open();
  const workspaceId = await mcp.workspaceId("Demo workspace");
  const url = `/api/workspaces/${workspaceId}/mcp`;

  const bad = await page.request.post(url, { data: { name: "remote", transport: "http", url: "ftp://example.com/mcp" } });
  expect(bad.status()).toBe(422);
  expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/^url: /);
  const noTransport = await page.request.post(url, { data: { name: "remote" } });
  expect(noTransport.status()).toBe(422);
  expect(((await noTransport.json()) as { error: { message: string } }).error.message).toMatch(/^transport: /);

  const context = await browser.newContext();
  const viewerPage = await context.newPage();
  await new SignInPage(viewerPage).signInAndWait(VIEWER.email, VIEWER.password);
  const refused = await viewerPage.request.post(url, { data: { name: "remote", transport: "http", url: fixture.url } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/only owners add/);
  const listed = await viewerPage.request.get(url);
  expect(listed.status()).toBe(200);
  await new McpSettingsPage(viewerPage).open();
  await expect(viewerPage.getByTestId("mcp-add-form")).toHaveCount(0);
  await context.close();
});
