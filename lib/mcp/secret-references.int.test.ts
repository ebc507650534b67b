import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fixtureCommand, fixtureServer, setStdioCommands } from "../../tests/fixtures/mcp-server";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { createTestDb, type TestDb } from "../db/test-db";
import { personalWorkspace } from "../db/workspaces";
import { streamable, textTurn, toolTurn } from "../engine/node-fixtures";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";
import type { FlowDocument } from "../flow/schema";
import { rowsContaining } from "../memory/test-fixtures";
import { openHostsForTests } from "../net/operator-open-hosts";
import { runTool } from "../tools/gateway";
import { workspaceToolRegistry } from "../tools/workspace-registry";
import { addSecret, deleteSecret, replaceSecret } from "../workspace-secrets/service";
import { captureLogs, filesContaining, storedBytesContaining } from "../workspace-secrets/test-helpers";
import { closeAllMcpClients } from "./client-pool";
import { addServer, listServers } from "./servers";

/**
 * `{{secret:NAME}}` in MCP server headers and env (docs/secrets.md "MCP servers"), against the
 * fixture MCP server served over Streamable HTTP in this process (so the test sees every
 * request's headers) and over stdio: the server receives the value; the configuration, the
 * API, the run and the database keep the reference; a secret whose hosts exclude the server
 * is refused before any request; a replaced or deleted secret is not used again; and a
 * connection never serves two workspaces.
 */

interface McpHttp {
  server: Server;
  url: string;
  /** The Authorization header of every request received. */
  auth: (string | undefined)[];
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

/** The fixture MCP server, stateless, on 127.0.0.1; it answers every request (no token check). */
async function serveMcp(): Promise<McpHttp> {
  const auth: (string | undefined)[] = [];
  const server = createServer(async (req, res) => {
    auth.push(req.headers.authorization);
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" }).end();
      return;
    }
    const mcp = fixtureServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, await readBody(req));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/mcp`, auth };
}

const canaryOf = () => randomBytes(24).toString("base64url").slice(0, 32);

describe("workspace secrets in MCP server headers and env", () => {
  let mcp: McpHttp;
  let host: string;
  let closeHosts = () => {};
  const logged: string[] = [];
  let restoreLog = () => {};
  let t: TestDb | undefined;
  let f: EngineFixture | undefined;
  const dir = mkdtempSync(path.join(tmpdir(), "phylactery-mcp-secrets-"));

  beforeAll(async () => {
    process.env.PROVIDER_KEYS_SECRET = "mcp-test-provider-keys-secret-0123456789";
    mcp = await serveMcp();
    host = new URL(mcp.url).host;
    closeHosts = openHostsForTests([host]);
    restoreLog = captureLogs(logged);
  });
  afterEach(async () => {
    await closeAllMcpClients();
    await f?.cleanup();
    await t?.cleanup();
    f = undefined;
    t = undefined;
  });
  afterAll(async () => {
    restoreLog();
    closeHosts();
    setStdioCommands(null);
    mcp.server.closeAllConnections();
    await new Promise((r) => mcp.server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  /** The Workspace assistant with the remote server's echo tool, allowed without approval. */
  function flow(): FlowDocument {
    const doc = structuredClone(workspaceAssistant);
    doc.nodes.push({ id: "t-echo", type: "tool", position: { x: 720, y: 440 }, data: { tool: "mcp__remote__echo" } });
    doc.edges.push({ id: "e-echo", source: "assistant", target: "t-echo" });
    const policy = doc.nodes.find((n) => n.type === "policy");
    if (policy?.type !== "policy") throw new Error("policy");
    policy.data.rules.unshift({ tool: "mcp__*__echo", decision: "ALLOW", risk: "low", permission: "any", match: [] });
    return doc;
  }

  it("an MCP server receives Authorization: Bearer <canary> from a {{secret:...}} header; afterwards the canary is in no table, file, log or stream", async () => {
    const canary = canaryOf();
    const prompts: string[] = [];
    const model = streamable(
      new MockLanguageModelV4({
        doGenerate: async (opts: LanguageModelV4CallOptions) => {
          const text = JSON.stringify(opts.prompt);
          prompts.push(text);
          if (text.includes("[phylactery:planner]")) return toolTurn("create_plan", { steps: [{ agent_id: "assistant", task: "Echo the greeting", expected_output: "", depends_on: [] }] });
          if (text.includes("[phylactery:executor]")) return opts.prompt.at(-1)?.role === "tool" ? textTurn("done") : toolTurn("mcp__remote__echo", { text: "hello over MCP" });
          return textTurn("The server echoed the greeting.");
        },
      }),
    );
    f = await engineFixture(flow(), { resolveModel: () => ({ model, provider: "mock", modelId: "mock", offline: false }) });
    const { db } = f.t;
    const workspaceId = (await db.flow.findUniqueOrThrow({ where: { id: f.flowId } })).workspaceId;
    await addSecret(db, f.userId, workspaceId, { name: "MCP_TOKEN", value: canary, hosts: [host] });
    logged.length = 0;
    mcp.auth.length = 0;

    const added = await addServer(db, f.userId, workspaceId, { name: "remote", transport: "http", url: mcp.url, secrets: { Authorization: "Bearer {{secret:MCP_TOKEN}}" } });
    expect(added.lastError).toBeNull();
    expect(added.tools.map((x) => x.toolName)).toContain("mcp__remote__echo");
    const threadId = await f.newThread("Use the echo tool on the greeting");
    const chunks = await collect(await f.prepare(threadId, { kind: "message", text: "Use the echo tool on the greeting" }));
    expect(lastData(chunks, "data-run")?.data.status).toBe("completed");
    const echoed = chunks.filter((c) => c.type === "data-tool" && c.data.toolName === "mcp__remote__echo").at(-1);
    expect(echoed?.type === "data-tool" && echoed.data).toMatchObject({ status: "done", output: "hello over MCP" });

    // The server got the value, on every request (listing at add, then the call in the run).
    expect(mcp.auth.length).toBeGreaterThan(0);
    expect(new Set(mcp.auth)).toEqual(new Set([`Bearer ${canary}`]));
    // The configuration keeps the reference: the sealed server secrets open to the reference.
    const views = await listServers(db, f.userId, workspaceId);
    expect(views[0]?.secretKeys).toEqual(["Authorization"]);
    expect(JSON.stringify(views)).not.toContain(canary);
    const used = await db.workspaceSecret.findUniqueOrThrow({ where: { workspaceId_name: { workspaceId, name: "MCP_TOKEN" } } });
    expect(used.lastUsedAt).not.toBeNull();

    // The byte scan: no row, stored byte, workspace file, log line, prompt or streamed chunk holds it.
    expect(await rowsContaining(db, canary)).toEqual([]);
    expect(await storedBytesContaining(f.t, canary)).toEqual([]);
    expect(filesContaining(f.workspacesDir, canary)).toEqual([]);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.filter((l) => l.includes(canary))).toEqual([]);
    expect(prompts.filter((p) => p.includes(canary))).toEqual([]);
    expect(JSON.stringify(chunks)).not.toContain(canary);
  });

  it("a secret whose hosts exclude the MCP server's host is refused, naming the secret and the host; the server gets 0 requests", async () => {
    t = await createTestDb();
    const owner = (await t.db.user.create({ data: { email: "owner@mcp-secrets.test" } })).id;
    const ws = await personalWorkspace(t.db, owner);
    const canary = canaryOf();
    await addSecret(t.db, owner, ws, { name: "API_TOKEN", value: canary, hosts: ["api.example.com"] });
    mcp.auth.length = 0;

    const added = await addServer(t.db, owner, ws, { name: "remote", transport: "http", url: mcp.url, secrets: { Authorization: "Bearer {{secret:API_TOKEN}}" } });
    expect(added.lastError).toBe(`Secret API_TOKEN may only be sent to api.example.com; this MCP server is at ${host}. The server was not contacted.`);
    expect(mcp.auth).toEqual([]);

    // Its tools as once listed (say, before the secret's hosts changed): a call is blocked the same way.
    await t.db.mcpServer.update({ where: { id: added.id }, data: { tools: JSON.stringify([{ name: "echo", description: "Echo.", inputSchema: { type: "object" } }]) } });
    const registry = await workspaceToolRegistry(t.db, ws);
    const call = await runTool("mcp__remote__echo", { text: "hi" }, { workspaceDir: dir, registry });
    expect(call).toMatchObject({ status: "error", errorCode: "secret_host_not_allowed" });
    expect(call.output).toContain("Secret API_TOKEN may only be sent to api.example.com");
    expect(mcp.auth).toEqual([]);

    // An unknown name is refused before any request too.
    const unknown = await addServer(t.db, owner, ws, { name: "other", transport: "http", url: mcp.url, secrets: { Authorization: "Bearer {{secret:NOPE}}" } });
    expect(unknown.lastError).toContain("No secret named NOPE in this workspace");
    expect(mcp.auth).toEqual([]);
  });

  it("a replaced secret is used from the next call on, a deleted one is refused; a connection never serves another workspace", async () => {
    t = await createTestDb();
    const { db } = t;
    const ownerA = (await db.user.create({ data: { email: "a@mcp-secrets.test" } })).id;
    const ownerB = (await db.user.create({ data: { email: "b@mcp-secrets.test" } })).id;
    const wsA = await personalWorkspace(db, ownerA);
    const wsB = await personalWorkspace(db, ownerB);
    const [first, second, other] = [canaryOf(), canaryOf(), canaryOf()];
    await addSecret(db, ownerA, wsA, { name: "MCP_TOKEN", value: first, hosts: [host] });
    await addSecret(db, ownerB, wsB, { name: "MCP_TOKEN", value: other, hosts: [host] });
    const config = { name: "remote", transport: "http" as const, url: mcp.url, secrets: { Authorization: "Bearer {{secret:MCP_TOKEN}}" } };
    expect((await addServer(db, ownerA, wsA, config)).lastError).toBeNull();
    expect((await addServer(db, ownerB, wsB, config)).lastError).toBeNull();
    const regA = await workspaceToolRegistry(db, wsA);
    const regB = await workspaceToolRegistry(db, wsB);
    const echo = async (reg: typeof regA) => {
      mcp.auth.length = 0;
      const r = await runTool("mcp__remote__echo", { text: "x" }, { workspaceDir: dir, registry: reg });
      return { r, auth: [...new Set(mcp.auth)] };
    };

    expect(await echo(regA)).toMatchObject({ r: { status: "success" }, auth: [`Bearer ${first}`] });
    expect(await echo(regB)).toMatchObject({ r: { status: "success" }, auth: [`Bearer ${other}`] });
    expect(await echo(regA)).toMatchObject({ auth: [`Bearer ${first}`] });

    await replaceSecret(db, ownerA, wsA, "MCP_TOKEN", { value: second });
    expect(await echo(regA)).toMatchObject({ r: { status: "success" }, auth: [`Bearer ${second}`] });

    await deleteSecret(db, ownerA, wsA, "MCP_TOKEN");
    const gone = await echo(regA);
    expect(gone.r).toMatchObject({ status: "error", errorCode: "unknown_secret" });
    expect(gone.auth).toEqual([]);
    expect(await echo(regB)).toMatchObject({ r: { status: "success" }, auth: [`Bearer ${other}`] });
  });

  it("stdio: a secret reaches only an environment variable the operator declared for the command", async () => {
    t = await createTestDb();
    const owner = (await t.db.user.create({ data: { email: "stdio@mcp-secrets.test" } })).id;
    const ws = await personalWorkspace(t.db, owner);
    const notes = path.join(dir, "notes.jsonl");
    writeFileSync(notes, "");
    setStdioCommands({ notes: fixtureCommand([], { env: ["MCP_NOTES_FILE"] }) });
    await addSecret(t.db, owner, ws, { name: "NOTES_PATH", value: notes, hosts: ["localhost"] });

    const added = await addServer(t.db, owner, ws, { name: "notes", transport: "stdio", command: "notes", secrets: { MCP_NOTES_FILE: "{{secret:NOTES_PATH}}" } });
    expect(added.lastError).toBeNull();
    const registry = await workspaceToolRegistry(t.db, ws);
    const saved = await runTool("mcp__notes__save_note", { title: "Plan", body: "ship" }, { workspaceDir: dir, registry });
    expect(saved).toMatchObject({ status: "success" });
    expect(readFileSync(notes, "utf8")).toBe(`${JSON.stringify({ title: "Plan", body: "ship" })}\n`);
    // A variable the operator did not declare cannot be set, with or without a reference.
    await expect(addServer(t.db, owner, ws, { name: "notes2", transport: "stdio", command: "notes", secrets: { OTHER: "{{secret:NOTES_PATH}}" } })).rejects.toMatchObject({
      reason: "mcp_secret_refused",
    });
  });
});
