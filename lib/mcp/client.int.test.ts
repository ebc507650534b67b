import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureCommand, type RunningFixture, setStdioCommands, startMcpFixture } from "../../tests/fixtures/mcp-server";
import { createTestDb, type TestDb } from "../db/test-db";
import { personalWorkspace } from "../db/workspaces";
import { openHostsForTests } from "../net/operator-open-hosts";
import { runTool } from "../tools/gateway";
import type { ToolRegistry } from "../tools/registry";
import { workspaceToolRegistry } from "../tools/workspace-registry";
import { closeAllMcpClients, openMcpConnections } from "./client-pool";
import { addServer, listServers, removeServer, updateServer } from "./servers";

/**
 * MCP servers end to end against the fixture server built with the official SDK:
 * discovery over stdio (a real child process, started as a command of the operator's
 * catalogue) and Streamable HTTP on 127.0.0.1 (opened to the guarded client as the operator
 * would), and calls through the tool gateway: valid input, input refused by the schema
 * converted from the tool's JSON Schema before the server sees it, timeout, output cap, a
 * server-side error.
 */
describe("MCP servers: discovery and calls", () => {
  let t: TestDb;
  let owner: string;
  let ws: string;
  let dir: string;
  let notes: string;
  let http: RunningFixture;
  let closeHosts: () => void;
  const opts = () => ({ workspaceDir: dir });
  const notesSaved = () =>
    readFileSync(notes, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { title: string; body: string });

  beforeAll(async () => {
    process.env.PROVIDER_KEYS_SECRET = "mcp-test-provider-keys-secret-0123456789";
    process.env.PHYLACTERY_MARKER_SECRET = "must-not-reach-the-child";
    setStdioCommands({
      notes: fixtureCommand([], { env: ["MCP_NOTES_FILE"] }),
      crashes: fixtureCommand(["--crash", "boom: missing config"]),
      missing: { argv: ["/nonexistent/phylactery/mcp-program"] },
    });
    closeHosts = openHostsForTests(["127.0.0.1"]);
    t = await createTestDb();
    owner = (await t.db.user.create({ data: { email: "owner@mcp.test" } })).id;
    ws = await personalWorkspace(t.db, owner);
    dir = mkdtempSync(path.join(tmpdir(), "phylactery-mcp-"));
    notes = path.join(dir, "notes.jsonl");
    writeFileSync(notes, "");
    http = await startMcpFixture({ token: "tok-123", env: { MCP_NOTES_FILE: path.join(dir, "http-notes.jsonl") } });
  });
  afterAll(async () => {
    await closeAllMcpClients();
    await http?.stop();
    closeHosts?.();
    setStdioCommands(null);
    await t?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  let registry: ToolRegistry;

  it("stdio: adding lists the tools with their schemas; secrets are write-only; a duplicate name is reported", async () => {
    const server = await addServer(t.db, owner, ws, { name: "notes", transport: "stdio", command: "notes", secrets: { MCP_NOTES_FILE: notes } });
    expect(server.lastError).toBeNull();
    expect(server.refreshedAt).not.toBeNull();
    expect(server.secretKeys).toEqual(["MCP_NOTES_FILE"]);
    expect(JSON.stringify(server)).not.toContain(notes);
    const byName = new Map(server.tools.map((x) => [x.name, x]));
    expect(byName.get("save_note")).toMatchObject({ toolName: "mcp__notes__save_note", sideEffect: true, problem: null });
    expect(byName.get("add")).toMatchObject({ toolName: "mcp__notes__add", sideEffect: false });
    expect(byName.get("add")?.inputSchema).toMatchObject({ type: "object", properties: { a: { type: "number" } }, required: ["a", "b"] });
    expect(byName.get("Echo")).toMatchObject({ toolName: null, problem: expect.stringContaining("would both be mcp__notes__echo") });
    expect((await listServers(t.db, owner, ws)).map((s) => s.name)).toEqual(["notes"]);
    const stored = await t.db.mcpServer.findFirstOrThrow({ where: { workspaceId: ws } });
    expect(stored.secretCiphertext).not.toContain(notes);

    registry = await workspaceToolRegistry(t.db, ws);
    const entry = registry.catalog().find((e) => e.name === "mcp__notes__save_note");
    expect(entry).toMatchObject({ source: "mcp:notes", sideEffect: true, version: "mcp", timeoutMs: 30_000, permission: "user", description: "Saves a note with a title and a body." });
    expect(entry?.inputSchema).toMatchObject({ properties: { title: { type: "string", minLength: 1 } } });
    expect(registry.catalog().find((e) => e.name === "read_file")?.source).toBe("builtin");
    expect(registry.get("mcp__notes__Echo")).toBeUndefined();
  });

  it("stdio: calls go through the gateway; bad input never reaches the server", async () => {
    const add = await runTool("mcp__notes__add", { a: 2, b: 3 }, { ...opts(), registry });
    expect(add).toMatchObject({ status: "success" });
    expect(JSON.parse(add.output)).toEqual({ sum: 5 });

    const saved = await runTool("mcp__notes__save_note", { title: "Groceries", body: "eggs" }, { ...opts(), registry });
    expect(saved).toMatchObject({ status: "success", output: 'Saved note "Groceries".' });
    expect(notesSaved()).toEqual([{ title: "Groceries", body: "eggs" }]);

    for (const bad of [{ title: 5, body: "x" }, { title: "", body: "x" }, { body: "no title" }]) {
      const refused = await runTool("mcp__notes__save_note", bad, { ...opts(), registry });
      expect(refused.errorCode).toBe("invalid_input");
    }
    expect(notesSaved()).toHaveLength(1);
    expect((await runTool("mcp__notes__save_note", { body: "no title" }, { ...opts(), registry })).output).toMatch(/title/);

    const failed = await runTool("mcp__notes__fail", {}, { ...opts(), registry });
    expect(failed).toMatchObject({ status: "error", errorCode: "mcp_tool_error" });
    expect(failed.output).toContain("the fixture failed on purpose");
  });

  it("stdio: a slow call times out and the connection keeps working; long outputs are capped", async () => {
    const started = Date.now();
    const slow = await runTool("mcp__notes__slow", { ms: 20_000 }, { ...opts(), registry, timeoutMs: 300 });
    expect(slow.errorCode).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await runTool("mcp__notes__echo", { text: "still here" }, { ...opts(), registry })).output).toBe("still here");

    const big = await runTool("mcp__notes__big", { chars: 5_000 }, { ...opts(), registry, maxOutputChars: 1_000 });
    expect(big.status).toBe("success");
    expect(big.sizeChars).toBe(5_000);
    expect(big.output).toMatch(/output truncated: showing 1000 of 5000 chars/);
  });

  it("stdio: the child gets its sealed env and a minimal environment, never this process's secrets", async () => {
    const names = (await runTool("mcp__notes__env_names", {}, { ...opts(), registry })).output.split("\n");
    expect(names).toContain("MCP_NOTES_FILE");
    expect(names).toContain("PATH");
    expect(names).not.toContain("PHYLACTERY_MARKER_SECRET");
    expect(names).not.toContain("PROVIDER_KEYS_SECRET");
  });

  it("http: a missing token is reported with what to do; setting the header secret lists the tools", async () => {
    const added = await addServer(t.db, owner, ws, { name: "remote", transport: "http", url: http.url });
    expect(added.tools).toEqual([]);
    expect(added.lastError).toMatch(/HTTP 401.*Authorization/);

    const fixed = await updateServer(t.db, owner, ws, added.id, { secrets: { Authorization: "Bearer tok-123" } });
    expect(fixed.lastError).toBeNull();
    expect(fixed.secretKeys).toEqual(["Authorization"]);
    expect(JSON.stringify(fixed)).not.toContain("tok-123");
    expect(fixed.tools.map((x) => x.toolName)).toContain("mcp__remote__echo");

    const reg = await workspaceToolRegistry(t.db, ws);
    expect(reg.catalog().find((e) => e.name === "mcp__remote__echo")?.source).toBe("mcp:remote");
    expect((await runTool("mcp__remote__echo", { text: "over http" }, { ...opts(), registry: reg })).output).toBe("over http");
    expect(JSON.parse((await runTool("mcp__remote__add", { a: 1, b: 1 }, { ...opts(), registry: reg })).output)).toEqual({ sum: 2 });
    expect((await runTool("mcp__remote__echo", { text: 42 }, { ...opts(), registry: reg })).errorCode).toBe("invalid_input");
  });

  it("unreachable servers are added with a lastError that says what to do", async () => {
    const missing = await addServer(t.db, owner, ws, { name: "missing", transport: "stdio", command: "missing" });
    expect(missing.lastError).toMatch(/program is not installed on this server.*ask the operator/i);

    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const a = s.address();
        s.close(() => resolve(typeof a === "object" && a ? a.port : 0));
      });
    });
    const refused = await addServer(t.db, owner, ws, { name: "offline", transport: "http", url: `http://127.0.0.1:${port}/mcp` });
    expect(refused.lastError).toMatch(/connection refused.*Start the MCP server/);

    const exits = await addServer(t.db, owner, ws, { name: "crashes", transport: "stdio", command: "crashes" });
    expect(exits.lastError).toMatch(/exited before answering.*server log/s);
    expect(exits.lastError).not.toContain("boom");
  });

  it("removing a server closes its connection and drops its tools", async () => {
    const before = openMcpConnections();
    const notesServer = (await listServers(t.db, owner, ws)).find((s) => s.name === "notes");
    if (!notesServer) throw new Error("notes");
    await removeServer(t.db, owner, ws, notesServer.id);
    expect(openMcpConnections()).toBe(before - 1);
    const reg = await workspaceToolRegistry(t.db, ws);
    expect(reg.get("mcp__notes__add")).toBeUndefined();
    expect(reg.get("mcp__remote__add")).toBeDefined();
  });
});
