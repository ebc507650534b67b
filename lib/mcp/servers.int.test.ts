import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setStdioCommands } from "../../tests/fixtures/mcp-server";
import { createTestDb, type TestDb } from "../db/test-db";
import { personalWorkspace } from "../db/workspaces";
import { errorResponse } from "../http/errors";
import { closeAllMcpClients } from "./client-pool";
import { McpServerInput, McpServerPatch } from "./config";
import { addServer, listServers, refreshServer, removeServer, updateServer } from "./servers";

/** The answer the routes give for a body (they parse with these schemas, then errorResponse). */
async function answer(schema: { parse(v: unknown): unknown }, body: unknown): Promise<{ status: number; message: string }> {
  try {
    schema.parse(body);
    return { status: 200, message: "" };
  } catch (err) {
    const res = errorResponse(err);
    return { status: res.status, message: ((await res.json()) as { error: { message: string } }).error.message };
  }
}

/**
 * The MCP server service behind `/api/workspaces/:id/mcp`: bodies are checked
 * with zod and refused with 422 naming the field; only owners manage servers (viewers and
 * approvers get 403, strangers 404); names are unique per workspace (409). A stdio server
 * is a command of the operator's catalogue (MCP_STDIO_COMMANDS), here one whose program is
 * not installed, so nothing runs.
 */
describe("MCP servers: who may do what, and bad input", () => {
  let t: TestDb;
  let owner: string;
  let viewer: string;
  let approver: string;
  let stranger: string;
  let ws: string;

  beforeAll(async () => {
    process.env.PROVIDER_KEYS_SECRET = "mcp-test-provider-keys-secret-0123456789";
    t = await createTestDb();
    owner = (await t.db.user.create({ data: { email: "owner@mcp.test" } })).id;
    viewer = (await t.db.user.create({ data: { email: "viewer@mcp.test" } })).id;
    approver = (await t.db.user.create({ data: { email: "approver@mcp.test" } })).id;
    stranger = (await t.db.user.create({ data: { email: "stranger@mcp.test" } })).id;
    ws = await personalWorkspace(t.db, owner);
    setStdioCommands({ tools: { argv: ["/nonexistent/phylactery/mcp-tools", "--root", "{root}"], values: { root: ["/srv/a", "/srv/b"] }, env: ["API_TOKEN", "OTHER"] } });
    await t.db.membership.createMany({
      data: [
        { workspaceId: ws, userId: viewer, role: "viewer" },
        { workspaceId: ws, userId: approver, role: "approver" },
      ],
    });
  });
  afterAll(async () => {
    await closeAllMcpClients();
    setStdioCommands(null);
    await t?.cleanup();
  });

  it("bad bodies answer 422 and name the field", async () => {
    const cases: [unknown, RegExp][] = [
      [{ transport: "stdio", command: "x" }, /^name: /],
      [{ name: "Bad Name", transport: "stdio", command: "x" }, /^name: lower-case letters/],
      [{ name: "a__b", transport: "stdio", command: "x" }, /^name: /],
      [{ name: "notes", transport: "ftp", url: "ftp://x" }, /^transport: choose "stdio"/],
      [{ name: "notes", transport: "stdio" }, /^command: /],
      [{ name: "notes", transport: "stdio", command: "/usr/bin/node" }, /^command: the name of one of the commands the operator enabled/],
      [{ name: "notes", transport: "stdio", command: "x", args: ["--x"] }, /args/],
      [{ name: "notes", transport: "stdio", command: "x", values: { Root: "/srv/a" } }, /^values\.Root: /],
      [{ name: "notes", transport: "http", url: "http://[::1" }, /^url: /],
      [{ name: "notes", transport: "http", url: "ftp://example.com/mcp" }, /^url: an http\(s\) URL/],
      [{ name: "notes", transport: "http", url: "http://user:pw@example.com/mcp" }, /^url: no user name or password/],
      [{ name: "notes", transport: "http", url: "http://example.com/mcp", secrets: { "Bad Header": "x" } }, /^secrets\.Bad Header: an HTTP header name/],
      [{ name: "notes", transport: "http", url: "http://example.com/mcp", secrets: { Host: "x" } }, /^secrets\.Host: the MCP client sets this header/],
      [{ name: "notes", transport: "stdio", command: "x", secrets: { "1BAD": "x" } }, /^secrets\.1BAD: an environment variable name/],
      [{ name: "notes", transport: "stdio", command: "x", secrets: { TOKEN: "a\nb" } }, /^secrets\.TOKEN: no line breaks/],
      [{ name: "notes", transport: "stdio", command: "x", url: "http://x" }, /url/],
    ];
    for (const [body, message] of cases) {
      const res = await answer(McpServerInput, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.message, JSON.stringify(body)).toMatch(message);
    }
    expect((await answer(McpServerInput, { name: "notes", transport: "http", url: " http://127.0.0.1:8931/mcp " })).status).toBe(200);
    expect((await answer(McpServerPatch, { name: "renamed" })).status).toBe(422);
  });

  it("only owners add, change, refresh or remove; members list; strangers get 404", async () => {
    const input = { name: "tools", transport: "stdio" as const, command: "tools" };
    for (const who of [viewer, approver]) {
      await expect(addServer(t.db, who, ws, input)).rejects.toMatchObject({ status: 403, message: expect.stringMatching(/only owners add/) });
    }
    await expect(addServer(t.db, stranger, ws, input)).rejects.toMatchObject({ status: 404 });
    expect(await t.db.mcpServer.count()).toBe(0);

    const added = await addServer(t.db, owner, ws, { ...input, secrets: { API_TOKEN: "s3cret" } });
    expect(added.lastError).toMatch(/program is not installed on this server/);
    expect(added).toMatchObject({ command: "tools", values: { root: "/srv/a" } });
    for (const who of [viewer, approver]) {
      const seen = await listServers(t.db, who, ws);
      expect(seen.map((s) => s.name)).toEqual(["tools"]);
      expect(seen[0]?.secretKeys).toEqual(["API_TOKEN"]);
      expect(JSON.stringify(seen)).not.toContain("s3cret");
      await expect(refreshServer(t.db, who, ws, added.id)).rejects.toMatchObject({ status: 403 });
      await expect(updateServer(t.db, who, ws, added.id, { values: { root: "/srv/b" } })).rejects.toMatchObject({ status: 403 });
      await expect(removeServer(t.db, who, ws, added.id)).rejects.toMatchObject({ status: 403 });
    }
    await expect(listServers(t.db, stranger, ws)).rejects.toMatchObject({ status: 404 });
  });

  it("names are unique per workspace; a patch keeps the transport; secrets can be set and removed", async () => {
    await expect(addServer(t.db, owner, ws, { name: "tools", transport: "http", url: "http://127.0.0.1:9/mcp" })).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/^name: this workspace already has an MCP server named tools/),
    });
    const [server] = await listServers(t.db, owner, ws);
    if (!server) throw new Error("server");
    await expect(updateServer(t.db, owner, ws, server.id, { url: "http://127.0.0.1:9/mcp" })).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/^url: this server uses stdio/) });
    await expect(updateServer(t.db, owner, ws, server.id, { secrets: { "bad name": "x" } })).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/^secrets\.bad name: /) });
    await expect(updateServer(t.db, owner, ws, server.id, { values: { depth: "1" } })).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/^values\.depth: the command tools takes no value/),
    });
    await expect(updateServer(t.db, owner, ws, server.id, { secrets: { SHELL: "/bin/sh" } })).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/^secrets\.SHELL: the command tools accepts only API_TOKEN, OTHER/),
    });
    const patched = await updateServer(t.db, owner, ws, server.id, { values: { root: "/srv/b" }, secrets: { API_TOKEN: null, OTHER: "v" } });
    expect(patched.values).toEqual({ root: "/srv/b" });
    expect(patched.secretKeys).toEqual(["OTHER"]);
    await expect(refreshServer(t.db, owner, ws, "nope")).rejects.toMatchObject({ status: 404 });
    await removeServer(t.db, owner, ws, server.id);
    expect(await listServers(t.db, owner, ws)).toEqual([]);
  });
});
