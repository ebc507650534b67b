import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../../lib/db/test-db";
import { personalWorkspace } from "../../lib/db/workspaces";
import { errorResponse } from "../../lib/http/errors";
import { closeAllMcpClients } from "../../lib/mcp/client-pool";
import { McpServerInput, McpServerPatch } from "../../lib/mcp/config";
import { addServer, listServers, refreshServer, removeServer, updateServer } from "../../lib/mcp/servers";
import { StdioCatalogueSetting } from "../../lib/mcp/stdio-catalogue";
import { STDIO_OFF_MESSAGE, stdioCommandChoices } from "../../lib/mcp/stdio-commands";
import { openHostsForTests } from "../../lib/net/operator-open-hosts";
import { runTool } from "../../lib/tools/gateway";
import { workspaceToolRegistry } from "../../lib/tools/workspace-registry";
import { fixtureCommand, setStdioCommands, startMcpFixture } from "../fixtures/mcp-server";

/**
 * Stdio MCP servers from a hostile owner's seat (docs/security.md "Stdio MCP servers",
 * "Operator settings", "Outbound requests"). Mallory owns her workspace, as every account
 * can. She tries to run a program of her own, to add or bend arguments, to set loader
 * variables, to read the server's environment through a tool, and to read a command's
 * output or an internal endpoint's body through error messages. The operator's catalogue
 * (MCP_STDIO_COMMANDS) runs the real fixture MCP server; a canary file shows whether any
 * command of hers ran, and /proc shows whether a stopped child is really gone.
 */

const marker = () => `m${randomBytes(6).toString("hex")}`;

/** What the route would answer for a thrown error, or 200 with the value as JSON. */
async function answer(run: () => unknown): Promise<{ status: number; text: string }> {
  try {
    return { status: 200, text: JSON.stringify(await run()) };
  } catch (err) {
    const res = errorResponse(err);
    return { status: res.status, text: await res.text() };
  }
}

/** Pids of live processes whose command line contains `needle` (Linux /proc). */
function processesWith(needle: string): number[] {
  return readdirSync("/proc")
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
        return state !== "Z" && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(needle) ? [Number(pid)] : [];
      } catch {
        return [];
      }
    });
}

async function eventually(check: () => boolean, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe("stdio MCP servers: a workspace owner cannot reach the host", () => {
  let t: TestDb;
  let mallory: string;
  let ws: string;
  let scratch: string;
  let rootA: string;
  let rootB: string;
  let pwned: string;
  const STDERR_CANARY = `stderr-canary-${marker()}`;
  const ENV_CANARY = `env-canary-${marker()}`;
  const marks = { hang: marker(), flood: marker(), line: marker(), crash: marker() };
  const opts = () => ({ workspaceDir: scratch });

  /** The operator's catalogue for these tests. */
  const catalogue = () => ({
    notes: fixtureCommand(["--root", "{root}"], { values: { root: [rootA, rootB] }, env: ["MCP_NOTES_FILE"], description: "Notes" }),
    hang: fixtureCommand(["--hang", marks.hang], { timeoutMs: 1500 }),
    crash: fixtureCommand(["--crash", STDERR_CANARY, marks.crash]),
    flood: fixtureCommand(["--flood", marks.flood], { maxOutputBytes: 256 * 1024 }),
    tight: fixtureCommand([marks.line], { maxMessageBytes: 64 * 1024 }),
  });

  beforeAll(async () => {
    process.env.PROVIDER_KEYS_SECRET = "mcp-security-provider-keys-secret-0123456789";
    process.env.PHYLACTERY_TEST_CANARY = ENV_CANARY;
    process.env.APPROVAL_SECRET = `approval-${ENV_CANARY}-0123456789abcdef0123456789`;
    t = await createTestDb();
    mallory = (await t.db.user.create({ data: { email: "mallory@attack.test" } })).id;
    ws = await personalWorkspace(t.db, mallory);
    scratch = mkdtempSync(path.join(tmpdir(), "phylactery-mcp-attack-"));
    rootA = path.join(scratch, "a");
    rootB = path.join(scratch, "b");
    pwned = path.join(scratch, "pwned");
    setStdioCommands(catalogue());
  });
  afterEach(async () => {
    await closeAllMcpClients();
    await t.db.mcpServer.deleteMany({});
    setStdioCommands(catalogue());
  });
  afterAll(async () => {
    await closeAllMcpClients();
    setStdioCommands(null);
    delete process.env.PHYLACTERY_TEST_CANARY;
    delete process.env.APPROVAL_SECRET;
    await t?.cleanup();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("with MCP_STDIO_COMMANDS unset, every stdio add, change and refresh answers 403 and nothing runs", async () => {
    setStdioCommands(null);
    expect(stdioCommandChoices()).toEqual([]);
    for (const body of [{ command: "notes" }, { command: "sh" }, { command: "notes", values: { root: rootA } }]) {
      const res = await answer(() => addServer(t.db, mallory, ws, McpServerInput.parse({ name: "evil", transport: "stdio", ...body })));
      expect(res.status).toBe(403);
      expect(res.text).toContain(STDIO_OFF_MESSAGE);
    }
    expect(await t.db.mcpServer.count()).toBe(0);
    // A row saved before (or planted in the database) runs nothing either.
    const row = await t.db.mcpServer.create({
      data: { workspaceId: ws, name: "legacy", transport: "stdio", command: "/bin/sh", args: JSON.stringify(["-c", `touch ${pwned}`]), createdById: mallory },
    });
    expect((await answer(() => refreshServer(t.db, mallory, ws, row.id))).status).toBe(403);
    expect((await answer(() => updateServer(t.db, mallory, ws, row.id, { secrets: { X: "y" } }))).status).toBe(403);
    await t.db.mcpServer.update({ where: { id: row.id }, data: { tools: JSON.stringify([{ name: "run", description: "", inputSchema: { type: "object" } }]) } });
    const call = await runTool("mcp__legacy__run", {}, { ...opts(), registry: await workspaceToolRegistry(t.db, ws) });
    expect(call.status).toBe("error");
    expect(call.output).toContain(STDIO_OFF_MESSAGE);
    expect(existsSync(pwned)).toBe(false);
    // The owner may still remove it.
    await removeServer(t.db, mallory, ws, row.id);
  });

  it("an owner cannot name a program, a command line, a shell or npx -c: the command is only a catalogue name", async () => {
    const attempts = [
      "/bin/sh",
      "/bin/bash",
      "sh -c id",
      `sh -c "touch ${pwned}"`,
      "bash",
      "sh",
      "./server.js",
      "../../../bin/sh",
      "server.js",
      "npx -c id",
      "npx",
      "node",
      "notes --root /etc",
      "notes;id",
      "notes\nid",
      "NOTES",
      "constructor",
      "__proto__",
      "toString",
      "hasOwnProperty",
      "",
    ];
    for (const command of attempts) {
      const res = await answer(() => addServer(t.db, mallory, ws, McpServerInput.parse({ name: "evil", transport: "stdio", command })));
      expect(res.status, command).toBe(422);
      expect(res.text, command).toMatch(/"message":"command: /);
    }
    expect(await t.db.mcpServer.count()).toBe(0);
    expect(existsSync(pwned)).toBe(false);
  });

  it("an owner cannot add arguments: args, argv, cwd, env or shell fields are refused, on add and on change", async () => {
    const extras = [
      { args: ["-c", `touch ${pwned}`] },
      { args: [] },
      { argv: ["/bin/sh", "-c", "id"] },
      { cwd: "/" },
      { env: { NODE_OPTIONS: "--import=data:text/javascript,1" } },
      { shell: true },
      { program: "/bin/sh" },
    ];
    for (const extra of extras) {
      expect(McpServerInput.safeParse({ name: "evil", transport: "stdio", command: "notes", ...extra }).success, JSON.stringify(extra)).toBe(false);
      expect(McpServerPatch.safeParse({ values: { root: rootA }, ...extra }).success, JSON.stringify(extra)).toBe(false);
    }
    const res = await answer(() => McpServerInput.parse({ name: "evil", transport: "stdio", command: "notes", args: ["-c", "id"] }));
    expect(res.status).toBe(422);
    expect(existsSync(pwned)).toBe(false);
  });

  it("an owner cannot change a declared value to one the operator did not list, nor invent a placeholder", async () => {
    const bad: Record<string, string>[] = [
      { root: "/etc" },
      { root: "/" },
      { root: `${rootA} ` },
      { root: ` ${rootA}` },
      { root: `${rootA}/` },
      { root: `${rootA}/../..` },
      { root: `${rootA}\0` },
      { root: `${rootA};id` },
      { root: `${rootA} --inspect=0.0.0.0:9229` },
      { root: `${rootA}\n--eval` },
      { root: rootA.toUpperCase() },
      { root: "" },
      { root: "{root}" },
      { evil: "-c" },
      { root: rootA, extra: "--inspect" },
      { constructor: "x" },
    ];
    for (const values of bad) {
      const res = await answer(() => addServer(t.db, mallory, ws, McpServerInput.parse({ name: "evil", transport: "stdio", command: "notes", values })));
      expect(res.status, JSON.stringify(values)).toBe(422);
      expect(res.text).toMatch(/"message":"values\./);
    }
    expect(await t.db.mcpServer.count()).toBe(0);

    // A listed value is accepted; the child runs the operator's argv with exactly that value.
    const ok = await addServer(t.db, mallory, ws, { name: "notes", transport: "stdio", command: "notes", values: { root: rootB } });
    expect(ok.lastError).toBeNull();
    expect(ok.values).toEqual({ root: rootB });
    expect(JSON.parse((await t.db.mcpServer.findUniqueOrThrow({ where: { id: ok.id } })).args)).toEqual({ root: rootB });
    const argv = await runTool("mcp__notes__argv", {}, { ...opts(), registry: await workspaceToolRegistry(t.db, ws) });
    expect(JSON.parse(argv.output)).toEqual([path.resolve("tests/fixtures/mcp-server.ts"), "--stdio", "--root", rootB]);

    // Changing it to an undeclared value is refused and leaves the stored value alone.
    for (const values of bad) {
      const res = await answer(() => updateServer(t.db, mallory, ws, ok.id, McpServerPatch.parse({ values })));
      expect(res.status, JSON.stringify(values)).toBe(422);
    }
    expect(JSON.parse((await t.db.mcpServer.findUniqueOrThrow({ where: { id: ok.id } })).args)).toEqual({ root: rootB });
  });

  it("an owner cannot set environment variables the operator did not declare (NODE_OPTIONS, LD_PRELOAD, PATH, ...)", async () => {
    for (const name of ["NODE_OPTIONS", "LD_PRELOAD", "LD_LIBRARY_PATH", "PATH", "HOME", "BASH_ENV", "PYTHONSTARTUP", "GIT_SSH_COMMAND", "DATABASE_URL", "APPROVAL_SECRET"]) {
      const res = await answer(() => addServer(t.db, mallory, ws, McpServerInput.parse({ name: "evil", transport: "stdio", command: "notes", secrets: { [name]: "x" } })));
      expect(res.status, name).toBe(422);
      expect(res.text).toContain(`secrets.${name}: the command notes accepts only MCP_NOTES_FILE`);
    }
    const ok = await addServer(t.db, mallory, ws, { name: "notes", transport: "stdio", command: "notes", secrets: { MCP_NOTES_FILE: path.join(scratch, "n.jsonl") } });
    const res = await answer(() => updateServer(t.db, mallory, ws, ok.id, { secrets: { NODE_OPTIONS: "--import=data:text/javascript,process.exit(9)" } }));
    expect(res.status).toBe(422);
  });

  it("the operator cannot declare a shell, a relative or PATH-searched program, or a loader variable: start-up names the setting", () => {
    const refused: [unknown, RegExp][] = [
      [{ x: { argv: ["/bin/sh", "-c", "node /srv/x.js"] } }, /^MCP_STDIO_COMMANDS\.x\.argv\.0: a shell or command launcher/],
      [{ x: { argv: ["/usr/bin/bash", "/srv/x.sh"] } }, /^MCP_STDIO_COMMANDS\.x\.argv\.0: a shell/],
      [{ x: { argv: ["/usr/bin/env", "node", "/srv/x.js"] } }, /^MCP_STDIO_COMMANDS\.x\.argv\.0: a shell/],
      [{ x: { argv: ["npx", "-y", "server"] } }, /^MCP_STDIO_COMMANDS\.x\.argv\.0: an absolute/],
      [{ x: { argv: ["./server"] } }, /^MCP_STDIO_COMMANDS\.x\.argv\.0: an absolute/],
      [{ x: { argv: ["/usr/bin/../bin/sh"] } }, /^MCP_STDIO_COMMANDS\.x\.argv\.0: an absolute, normalised/],
      [{ x: { argv: ["{prog}"], values: { prog: ["/bin/sh"] } } }, /^MCP_STDIO_COMMANDS\.x\.argv\.0: /],
      [{ x: { argv: ["/usr/bin/node", "{script}"] } }, /^MCP_STDIO_COMMANDS\.x\.values\.script: argv uses \{script\}/],
      [{ x: { argv: ["/usr/bin/node"], env: ["NODE_OPTIONS"] } }, /^MCP_STDIO_COMMANDS\.x\.env\.0: this variable can make the program load code/],
      [{ x: { argv: ["/usr/bin/node"], env: ["LD_PRELOAD"] } }, /^MCP_STDIO_COMMANDS\.x\.env\.0: /],
      [{ x: { argv: ["/usr/bin/node"], shell: true } }, /^MCP_STDIO_COMMANDS\.x: /],
      [{ "Bad Name": { argv: ["/usr/bin/node"] } }, /^MCP_STDIO_COMMANDS/],
    ];
    for (const [value, message] of refused) {
      const parsed = StdioCatalogueSetting.safeParse(JSON.stringify(value));
      expect(parsed.success, JSON.stringify(value)).toBe(false);
      expect(parsed.error?.issues[0]?.message, JSON.stringify(value)).toMatch(message);
    }
    expect(StdioCatalogueSetting.safeParse("{not json").error?.issues[0]?.message).toMatch(/^MCP_STDIO_COMMANDS: not JSON/);
    expect(StdioCatalogueSetting.safeParse(JSON.stringify(catalogue())).success).toBe(true);
  });

  it("the child cannot read this server's environment: only PATH, HOME, TMPDIR, LANG and the declared secret reach it", async () => {
    const notes = path.join(scratch, "env-notes.jsonl");
    await addServer(t.db, mallory, ws, { name: "notes", transport: "stdio", command: "notes", secrets: { MCP_NOTES_FILE: notes } });
    const out = await runTool("mcp__notes__env", {}, { ...opts(), registry: await workspaceToolRegistry(t.db, ws) });
    expect(out.status).toBe("success");
    const env = JSON.parse(out.output) as Record<string, string>;
    expect(Object.keys(env).sort()).toEqual(["HOME", "LANG", "MCP_NOTES_FILE", "PATH", "TMPDIR"]);
    expect(env.PATH).toBe("/usr/bin:/bin");
    expect(env.MCP_NOTES_FILE).toBe(notes);
    expect(out.output).not.toContain(ENV_CANARY);
    expect(out.output).not.toContain("PROVIDER_KEYS_SECRET");
  });

  it("the child's cwd is a fresh 0700 temporary directory (also its HOME and TMPDIR), removed when it exits", async () => {
    const first = await addServer(t.db, mallory, ws, { name: "notes", transport: "stdio", command: "notes" });
    await addServer(t.db, mallory, ws, { name: "other", transport: "stdio", command: "notes" });
    const registry = await workspaceToolRegistry(t.db, ws);
    const a = JSON.parse((await runTool("mcp__notes__where", {}, { ...opts(), registry })).output) as { cwd: string; home: string; tmpdir: string };
    const b = JSON.parse((await runTool("mcp__other__where", {}, { ...opts(), registry })).output) as { cwd: string };
    expect(a.home).toBe(a.cwd);
    expect(a.tmpdir).toBe(a.cwd);
    expect(a.cwd).not.toBe(process.cwd());
    expect(a.cwd).not.toBe(b.cwd);
    expect(path.dirname(a.cwd)).toBe(tmpdir());
    const st = statSync(a.cwd);
    expect(st.mode & 0o777).toBe(0o700);
    expect(st.uid).toBe(process.getuid?.());
    await removeServer(t.db, mallory, ws, first.id);
    expect(await eventually(() => !existsSync(a.cwd))).toBe(true);
    expect(existsSync(b.cwd)).toBe(true);
  });

  it("a process the child starts dies with it: the whole process group is killed on close", async () => {
    const server = await addServer(t.db, mallory, ws, { name: "notes", transport: "stdio", command: "notes" });
    const pid = Number((await runTool("mcp__notes__sleeper", {}, { ...opts(), registry: await workspaceToolRegistry(t.db, ws) })).output);
    expect(pid).toBeGreaterThan(0);
    expect(existsSync(`/proc/${pid}`)).toBe(true);
    await removeServer(t.db, mallory, ws, server.id);
    const gone = () => {
      try {
        return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] === "Z";
      } catch {
        return true;
      }
    };
    expect(await eventually(gone)).toBe(true);
  });

  it("a server that never answers is killed at the operator's limit and reported in the product's words", async () => {
    const started = Date.now();
    const added = await addServer(t.db, mallory, ws, { name: "hang", transport: "stdio", command: "hang" });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(added.lastError).toMatch(/did not answer within 1\.5 s, so it was stopped/);
    expect(await eventually(() => processesWith(marks.hang).length === 0)).toBe(true);
  });

  it("an output flood is cut and the child killed: all output past the limit, and one message past its limit", async () => {
    const flood = await addServer(t.db, mallory, ws, { name: "flood", transport: "stdio", command: "flood" });
    expect(flood.lastError).toMatch(/wrote more than 256 KiB of output, so it was stopped/);
    expect(flood.lastError).not.toContain("yyyy");
    expect(await eventually(() => processesWith(marks.flood).length === 0)).toBe(true);

    const tight = await addServer(t.db, mallory, ws, { name: "tight", transport: "stdio", command: "tight" });
    expect(tight.lastError).toBeNull();
    const registry = await workspaceToolRegistry(t.db, ws);
    expect((await runTool("mcp__tight__big", { chars: 1_000 }, { ...opts(), registry })).status).toBe("success");
    const big = await runTool("mcp__tight__big", { chars: 200_000 }, { ...opts(), registry });
    expect(big).toMatchObject({ status: "error", errorCode: "mcp_unavailable" });
    expect(big.output).toMatch(/longer than 64 KiB, so it was stopped/);
    expect(await eventually(() => processesWith(marks.line).length === 0)).toBe(true);
  });

  it("a failing command's stderr never reaches the answer, the stored lastError or another member's view", async () => {
    const added = await addServer(t.db, mallory, ws, { name: "crash", transport: "stdio", command: "crash" });
    expect(added.lastError).toMatch(/exited before answering/);
    const refreshed = await refreshServer(t.db, mallory, ws, added.id);
    for (const text of [JSON.stringify(added), JSON.stringify(refreshed), JSON.stringify(await listServers(t.db, mallory, ws)), JSON.stringify(await t.db.mcpServer.findMany())]) {
      expect(text).not.toContain(STDERR_CANARY);
      expect(text).not.toContain("exit code 3");
    }
  });

  it("a stored row with a program path or free arguments (from before named commands) is refused at connect and runs nothing", async () => {
    const legacy = await t.db.mcpServer.create({
      data: { workspaceId: ws, name: "legacy", transport: "stdio", command: "/bin/sh", args: JSON.stringify(["-c", `touch ${pwned}`]), createdById: mallory },
    });
    const one = await refreshServer(t.db, mallory, ws, legacy.id);
    expect(one.lastError).toMatch(/not one the operator enabled on this instance \(MCP_STDIO_COMMANDS\)/);
    const freeArgs = await t.db.mcpServer.create({
      data: { workspaceId: ws, name: "freeargs", transport: "stdio", command: "notes", args: JSON.stringify(["-c", `touch ${pwned}`]), createdById: mallory },
    });
    expect((await refreshServer(t.db, mallory, ws, freeArgs.id)).lastError).toMatch(/saved with free arguments/);
    const withdrawn = await t.db.mcpServer.create({ data: { workspaceId: ws, name: "withdrawn", transport: "stdio", command: "notes", args: JSON.stringify({ root: "/etc" }), createdById: mallory } });
    expect((await refreshServer(t.db, mallory, ws, withdrawn.id)).lastError).toMatch(/no longer one the operator allows/);
    expect(existsSync(pwned)).toBe(false);
  });

  it("an HTTP server's error body never reaches the answer or lastError; a private address is refused in the product's words", async () => {
    const BODY_CANARY = `body-canary-${marker()}`;
    const failing = await startMcpFixture({ failBody: `internal secret ${BODY_CANARY}` });
    const close = openHostsForTests(["127.0.0.1"]);
    try {
      const added = await addServer(t.db, mallory, ws, { name: "remote", transport: "http", url: failing.url });
      expect(added.lastError).toMatch(/answered HTTP 500\. Check the MCP server/);
      const refreshed = await refreshServer(t.db, mallory, ws, added.id);
      for (const text of [JSON.stringify(added), JSON.stringify(refreshed), JSON.stringify(await t.db.mcpServer.findMany())]) expect(text).not.toContain(BODY_CANARY);
    } finally {
      close();
      await failing.stop();
    }
    const internal = await startMcpFixture({ failBody: `internal secret ${BODY_CANARY}` });
    try {
      const added = await addServer(t.db, mallory, ws, { name: "internal", transport: "http", url: internal.url });
      expect(added.lastError).toMatch(/the address is not allowed \(private network\)/);
      expect(JSON.stringify(added)).not.toContain(BODY_CANARY);
    } finally {
      await internal.stop();
    }
  });
});
