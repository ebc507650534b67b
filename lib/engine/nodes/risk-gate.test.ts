import { describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../../templates/workspace-assistant";
import type { FlowDocument } from "../../flow/schema";
import type { ProposedTool } from "../state";
import { assistantAgent, branchTask, fakeDeps, gotoOf, mirrored, proposal, recorder, targets, updateOf } from "./fake-deps";
import { riskGateNode } from "./risk-gate";

/** RiskGate (docs/architecture.md#nodes): integrity check on the recomputed hash, then the flow's policy. */

const at = (p: ProposedTool) => branchTask({ proposed_tool: p });

describe("riskGateNode", () => {
  it("arguments changed after hashing: integrity error -> Interpreter, no approval, nothing proposed", async () => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const p = { ...proposal("write_file", { path: "summary.md", content: "hi" }), args: { path: "summary.md", content: "evil" } };
    const cmd = await riskGateNode(deps)(at(p), config as never);
    const t = targets(cmd);
    expect(t.map((x) => x.node)).toEqual(["interpreter"]);
    expect(t[0]?.arg?.branch.last_tool_result).toMatchObject({ tool_name: "write_file", call_id: p.tool_call_id, status: "error", metadata: { code: "integrity_error" } });
    expect(t[0]?.arg?.branch.awaiting_approval).toBe(false);
    expect(deps.created).toHaveLength(0);
    expect(deps.ran).toHaveLength(0);
    expect(deps.audits.map((a) => a.action)).toEqual(["integrity_error"]);
    expect(chunks).toMatchObject([{ type: "data-tool", data: { status: "error" } }]);
  });

  it("a hash the model made up (not SHA-256 of the canonical args) is an integrity error, even for an ALLOW tool", async () => {
    const deps = fakeDeps();
    const p = { ...proposal("read_file", { path: "notes.md" }), args_hash: "0".repeat(64) };
    const t = targets(await riskGateNode(deps)(at(p)));
    expect(t[0]?.node).toBe("interpreter");
    expect(t[0]?.arg?.branch.last_tool_result?.metadata).toEqual({ code: "integrity_error" });
  });

  it("arguments that are not JSON (e.g. a BigInt) are refused as an integrity error", async () => {
    const deps = fakeDeps();
    const p = { ...proposal("read_file", { path: "notes.md" }), args: { path: 1n } };
    const t = targets(await riskGateNode(deps)(at(p)));
    expect(t[0]?.node).toBe("interpreter");
    expect(t[0]?.arg?.branch.last_tool_result?.metadata).toEqual({ code: "integrity_error" });
  });

  it("key order does not matter: the canonical form is what is hashed", async () => {
    const deps = fakeDeps();
    const p = { ...proposal("read_file", { path: "notes.md", content: "x" }), args: { content: "x", path: "notes.md" } };
    expect(targets(await riskGateNode(deps)(at(p)))[0]?.node).toBe("tools");
  });

  it("ALLOW (read_file) -> Tools with the branch unchanged, audited as proposed", async () => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const p = proposal("read_file", { path: "notes.md" });
    const task = at(p);
    const cmd = await riskGateNode(deps)(task, config as never);
    const t = targets(cmd);
    expect(t.map((x) => x.node)).toEqual(["tools"]);
    expect(t[0]?.arg?.branch).toEqual(task.branch);
    expect(deps.created).toHaveLength(0);
    expect(deps.audits).toEqual([{ threadId: "thread-1", action: "tool_proposed", tool: "read_file" }]);
    expect(chunks).toMatchObject([{ type: "data-tool", data: { status: "allowed", decision: "ALLOW", risk: "low" } }]);
  });

  it("a call an approver edited without its token (revised_from) waits for its own approval even where the policy allows it", async () => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const p = { ...proposal("read_file", { path: "notes.md" }), tool_call_id: "edit-apv_1", revised_from: "apv_1" };
    const cmd = await riskGateNode(deps)(at(p), config as never);
    expect(targets(cmd).map((x) => x.node)).toEqual(["await_approval"]);
    expect(deps.created).toHaveLength(1);
    expect(chunks).toMatchObject([
      { type: "data-tool", data: { status: "awaiting_approval", decision: "AUTH_REQUIRED", rule: expect.stringMatching(/edited by an approver from apv_1/) } },
      { type: "data-approval" },
    ]);
  });

  it("a revised call the policy BLOCKS is still blocked", async () => {
    const deps = fakeDeps();
    const p = { ...proposal("delete_file", { path: "notes.md" }), revised_from: "apv_1" };
    const cmd = await riskGateNode(deps)(at(p));
    expect(targets(cmd)).toEqual([{ node: "supervisor" }]);
    expect(deps.created).toHaveLength(0);
  });

  it("BLOCKED (delete_file) ends the step's try as blocked, final -> Supervisor: audited, never run, never handed back to the agent", async () => {
    const deps = fakeDeps();
    const { config, chunks } = recorder();
    const cmd = await riskGateNode(deps)(at(proposal("delete_file", { path: "notes.md" })), config as never);
    expect(targets(cmd)).toEqual([{ node: "supervisor" }]);
    const b = mirrored(cmd);
    expect(b?.phase).toBe("done");
    expect(b?.last_tool_result).toMatchObject({ status: "error", output: expect.stringMatching(/^BLOCKED by policy/), metadata: { code: "tool_blocked" } });
    expect(b?.output).toMatchObject({ ok: false, final: "blocked", text: expect.stringMatching(/^delete_file notes\.md was not done: blocked by policy \(File safety #\d/) });
    expect(b?.executor_messages).toEqual([]);
    expect(deps.audits).toEqual([{ threadId: "thread-1", action: "tool_blocked", tool: "delete_file" }]);
    expect(updateOf(cmd).audit_trail).toMatchObject([{ action: "tool_blocked", tool: "delete_file" }]);
    expect(deps.created).toHaveLength(0);
    expect(deps.ran).toHaveLength(0);
    expect(chunks).toMatchObject([{ type: "data-tool", data: { status: "blocked", decision: "BLOCKED" } }]);
  });

  it("a stored canonical text that differs from the args is an integrity error: no challenge shows it", async () => {
    const deps = fakeDeps();
    const p = { ...proposal("write_file", { path: "summary.md", content: "evil" }), canonical_args: '{"content":"harmless","path":"summary.md"}' };
    const cmd = await riskGateNode(deps)(at(p));
    expect(targets(cmd)[0]?.node).toBe("interpreter");
    expect(targets(cmd)[0]?.arg?.branch.last_tool_result).toMatchObject({ metadata: { code: "integrity_error" } });
    expect(deps.created).toHaveLength(0);
  });

  it("a tool not wired to the branch's agent is refused, even one the policy allows", async () => {
    const deps = fakeDeps();
    const cmd = await riskGateNode(deps)(branchTask({ agent: { ...assistantAgent, id: "someone-else" }, proposed_tool: proposal("read_file", { path: "x" }) }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(mirrored(cmd)?.last_tool_result).toMatchObject({ status: "error", metadata: { code: "tool_not_allowed" } });
    expect(mirrored(cmd)?.output).toMatchObject({ ok: false, final: "blocked", text: expect.stringContaining("read_file x was not done") });
    expect(deps.created).toHaveLength(0);
  });

  it("a tool the agent lost on the canvas is refused (agent wired to read_file only)", async () => {
    const doc: FlowDocument = { ...workspaceAssistant, edges: workspaceAssistant.edges.filter((e) => e.id !== "e-write") };
    const deps = fakeDeps([], doc);
    const cmd = await riskGateNode(deps)(at(proposal("write_file", { path: "a", content: "b" })));
    expect(mirrored(cmd)?.last_tool_result?.metadata).toEqual({ code: "tool_not_allowed" });
    expect(mirrored(cmd)?.output?.final).toBe("blocked");
    expect(deps.created).toHaveLength(0);
  });

  it("nothing proposed -> Interpreter, nothing audited", async () => {
    const deps = fakeDeps();
    const cmd = await riskGateNode(deps)(branchTask());
    expect(targets(cmd).map((x) => x.node)).toEqual(["interpreter"]);
    expect(deps.audits).toEqual([]);
  });
});
