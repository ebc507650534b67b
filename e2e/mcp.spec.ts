import { expect, test } from "./fixtures";
import { type RunningFixture, startMcpFixture } from "../tests/fixtures/mcp-server";
import { FlowsPage, SignInPage } from "./pages/app";
import { InspectorPanel } from "./pages/inspector";
import { McpSettingsPage } from "./pages/mcp";
import { VIEWER } from "./pages/members";

/**
 * MCP servers on the seeded database, against the fixture MCP server (official
 * SDK) over Streamable HTTP on a free port of 127.0.0.1 (opened by OUTBOUND_ALLOW_PRIVATE),
 * protected by a bearer token: the demo owner adds it (a missing token is reported with
 * what to do, then set as a secret), sees its tools with their schemas, and finds them in
 * the editor's palette and inspector. Over stdio, the owner can only pick the operator's
 * command (playwright.config.ts sets MCP_STDIO_COMMANDS) and one of its listed values.
 * Over the API, a bad body is refused naming the field, a program, an argument or an
 * unlisted value is refused, and a viewer cannot add servers.
 */
const TOKEN = "e2e-token-5b3cc4";
let fixture: RunningFixture;

test.beforeAll(async () => {
  fixture = await startMcpFixture({ token: TOKEN });
});
test.afterAll(async () => {
  await fixture?.stop();
});

test("the owner adds an HTTP MCP server, sees its tools, and finds them in the flow editor", async ({ page, consoleErrors }) => {
  await new SignInPage(page).signInAndWait();
  const mcp = new McpSettingsPage(page);
  await mcp.open();
  const ws = mcp.workspace("Demo workspace");
  await expect(ws.getByTestId("mcp-empty")).toContainText("Model Context Protocol");

  // Inline errors: the server's 422 lands under the field it names.
  consoleErrors.allow(/status of 422 .*\/mcp\)$/);
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

test("over stdio the owner picks one of the operator's commands and a listed value; nothing can be typed as a program or argument", async ({ page }) => {
  await new SignInPage(page).signInAndWait();
  const mcp = new McpSettingsPage(page);
  await mcp.open();
  const ws = mcp.workspace("Demo workspace");
  await ws.getByTestId("mcp-add-transport-stdio").check();
  await expect(ws.getByTestId("mcp-stdio-warning")).toContainText("the operator installed and listed");
  await expect(ws.getByTestId("mcp-add-command").locator("option")).toHaveText(["fixture: the test MCP server"]);
  await expect(ws.getByTestId("mcp-add-value-root").locator("option")).toHaveText(["/srv/notes-a", "/srv/notes-b"]);
  await expect(ws.locator("input[data-testid=mcp-add-command], textarea[data-testid=mcp-add-args]")).toHaveCount(0);

  await mcp.addStdio(ws, "local", "fixture", { root: "/srv/notes-b" });
  const card = mcp.server(ws, "local");
  await expect(card.getByTestId("mcp-server-status-local")).toContainText("connected");
  await expect(card.getByTestId("mcp-server-config-local")).toHaveText("command fixture · root=/srv/notes-b");
  await expect(card.getByTestId("mcp-tool-mcp__local__echo")).toBeVisible();
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

  // Stdio: a program, an argument or an unlisted value is refused; the operator's commands are listed by name only.
  const refusedStdio: [unknown, RegExp][] = [
    [{ name: "shell", transport: "stdio", command: "/bin/sh" }, /^command: /],
    [{ name: "shell", transport: "stdio", command: "fixture", args: ["-c", "id"] }, /args/],
    [{ name: "shell", transport: "stdio", command: "fixture", values: { root: "/etc" } }, /^values\.root: choose one of the values the operator listed/],
  ];
  for (const [data, message] of refusedStdio) {
    const res = await page.request.post(url, { data });
    expect(res.status(), JSON.stringify(data)).toBe(422);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(message);
  }
  const commands = await page.request.get("/api/mcp/commands");
  expect(await commands.json()).toEqual({
    commands: [{ name: "fixture", description: "the test MCP server", values: { root: ["/srv/notes-a", "/srv/notes-b"] }, env: ["MCP_NOTES_FILE"], timeoutMs: 30_000 }],
  });

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
