import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { fixtureCommand, setStdioCommands } from "../../tests/fixtures/mcp-server";
import { workspaceAssistant } from "../../templates/workspace-assistant";
import { streamable, textTurn, toolTurn } from "../engine/node-fixtures";
import { collect, type EngineFixture, engineFixture, lastData } from "../runs/test-helpers";
import type { FlowDocument } from "../flow/schema";
import { closeAllMcpClients } from "./client-pool";
import { addServer } from "./servers";

/**
 * MCP tools in a run, on the real engine, a real SQLite file and the fixture MCP
 * server over stdio, with a scripted model: `mcp__notes__echo` runs at once (a policy rule
 * ALLOWs `mcp__*__echo`); `mcp__notes__save_note` has a side effect and the only rule naming
 * it does not match these arguments, so the default applies and the RiskGate asks for
 * approval; the server receives the call only after the approval.
 */
function mcpFlow(): FlowDocument {
  const doc = structuredClone(workspaceAssistant);
  doc.nodes.push(
    { id: "t-echo", type: "tool", position: { x: 720, y: 440 }, data: { tool: "mcp__notes__echo" } },
    { id: "t-save", type: "tool", position: { x: 720, y: 540 }, data: { tool: "mcp__notes__save_note" } },
  );
  doc.edges.push({ id: "e-echo", source: "assistant", target: "t-echo" }, { id: "e-save", source: "assistant", target: "t-save" });
  const policy = doc.nodes.find((n) => n.type === "policy");
  if (policy?.type !== "policy") throw new Error("policy");
  policy.data.rules.unshift(
    { tool: "mcp__*__echo", decision: "ALLOW", risk: "low", permission: "any", match: [] },
    // Drafts may be saved freely; any other note falls to the default for side effects.
    { tool: "mcp__notes__save_note", decision: "ALLOW", risk: "low", permission: "any", match: [{ kind: "regex", field: "title", pattern: "^draft-" }] },
  );
  return doc;
}

describe("MCP tools in a run", () => {
  let f: EngineFixture;
  const dir = mkdtempSync(path.join(tmpdir(), "phylactery-mcp-run-"));
  const notes = path.join(dir, "notes.jsonl");
  afterEach(async () => f?.cleanup());
  afterAll(async () => {
    await closeAllMcpClients();
    setStdioCommands(null);
    rmSync(dir, { recursive: true, force: true });
  });

  it("echo runs without approval; save_note waits for approval and reaches the server only after it", async () => {
    process.env.PROVIDER_KEYS_SECRET = "mcp-test-provider-keys-secret-0123456789";
    writeFileSync(notes, "");
    const model = streamable(
      new MockLanguageModelV4({
        doGenerate: async (opts: LanguageModelV4CallOptions) => {
          const text = JSON.stringify(opts.prompt);
          if (text.includes("[phylactery:planner]")) {
            return toolTurn("create_plan", {
              steps: [
                { agent_id: "assistant", task: "Echo the greeting", expected_output: "", depends_on: [] },
                { agent_id: "assistant", task: "Save the meeting note", expected_output: "", depends_on: [0] },
              ],
            });
          }
          if (text.includes("[phylactery:executor]")) {
            if (opts.prompt.at(-1)?.role === "tool") return textTurn("done");
            const task = /<step-task>\\n(.*?)\\n<\/step-task>/.exec(text)?.[1];
            if (task === "Echo the greeting") return toolTurn("mcp__notes__echo", { text: "hello from MCP" });
            return toolTurn("mcp__notes__save_note", { title: "Meeting", body: "Ship issue 6." });
          }
          return textTurn("The note is saved.");
        },
      }),
    );
    f = await engineFixture(mcpFlow(), { resolveModel: () => ({ model, provider: "mock", modelId: "mock", offline: false }) });
    const { workspaceId } = await f.t.db.flow.findUniqueOrThrow({ where: { id: f.flowId } });
    setStdioCommands({ notes: fixtureCommand([], { env: ["MCP_NOTES_FILE"] }) });
    const server = await addServer(f.t.db, f.userId, workspaceId, { name: "notes", transport: "stdio", command: "notes", secrets: { MCP_NOTES_FILE: notes } });
    expect(server.lastError).toBeNull();

    // createThread checks the flow against the workspace's catalog, MCP tools included.
    const threadId = await f.newThread("Save the meeting note");
    const first = await collect(await f.prepare(threadId, { kind: "message", text: "Save the meeting note" }));
    const tools = first.filter((c) => c.type === "data-tool").map((c) => (c.type === "data-tool" ? c.data : null));
    const echo = tools.filter((x) => x?.toolName === "mcp__notes__echo");
    expect(echo.some((x) => x?.decision === "ALLOW" && x.rule?.includes("mcp__*__echo"))).toBe(true);
    expect(echo.at(-1)).toMatchObject({ status: "done", output: "hello from MCP" });
    const approval = lastData(first, "data-approval")?.data;
    expect(approval?.toolName).toBe("mcp__notes__save_note");
    expect(JSON.parse(approval?.canonicalArgs ?? "{}")).toEqual({ title: "Meeting", body: "Ship issue 6." });
    const save = tools.filter((x) => x?.toolName === "mcp__notes__save_note");
    expect(save.some((x) => x?.decision === "AUTH_REQUIRED")).toBe(true);
    expect(save.at(-1)?.status).toBe("awaiting_approval");
    expect(lastData(first, "data-run")?.data.status).toBe("awaiting_approval");
    expect(readFileSync(notes, "utf8")).toBe("");

    if (!approval) throw new Error("no approval");
    const second = await collect(await f.prepare(threadId, { kind: "decision", approvalId: approval.approvalId, decision: "approve", token: approval.token }));
    expect(lastData(second, "data-run")?.data.status).toBe("completed");
    expect(readFileSync(notes, "utf8")).toBe(`${JSON.stringify({ title: "Meeting", body: "Ship issue 6." })}\n`);
    const saved = second.filter((c) => c.type === "data-tool" && c.data.toolName === "mcp__notes__save_note").at(-1);
    expect(saved?.type === "data-tool" && saved.data).toMatchObject({ status: "done", output: 'Saved note "Meeting".' });
    expect(await f.t.db.auditEntry.count({ where: { threadId, action: "tool_executed", toolName: "mcp__notes__save_note" } })).toBe(1);
    expect(await f.t.db.auditEntry.count({ where: { threadId, action: "tool_executed", toolName: "mcp__notes__echo" } })).toBe(1);
  });

  it("a flow bound to an MCP tool the workspace does not have cannot start a thread", async () => {
    f = await engineFixture(mcpFlow());
    await expect(f.newThread()).rejects.toMatchObject({ status: 422, reason: "flow_not_runnable", message: expect.stringContaining("mcp__notes__echo") });
  });
});
