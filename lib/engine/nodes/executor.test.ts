import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../../templates/workspace-assistant";
import type { FlowDocument } from "../../flow/schema";
import { canonicalArgs } from "../../policy/canonical";
import { assistantAgent, branchTask, fakeDeps, gotoOf, mirrored, plan, recorder, step, targets, textTurn, toolTurn, updateOf } from "./fake-deps";
import { executorNode } from "./executor";

/** Executor (docs/architecture.md#nodes): the step's agent proposes a tool call (-> RiskGate) or answers (-> Supervisor). */

describe("executorNode", () => {
  it("a tool call becomes proposed_tool with RFC 8785 canonical args and their SHA-256 -> RiskGate", async () => {
    const args = { path: "summary.md", content: 'ünïcode é "q"\n' };
    const deps = fakeDeps([toolTurn("write_file", args, "call_7")]);
    const { config, chunks } = recorder();
    const cmd = await executorNode(deps)(branchTask(), config as never);
    const t = targets(cmd);
    expect(t.map((x) => x.node)).toEqual(["risk_gate"]);
    const p = t[0]?.arg?.branch.proposed_tool;
    const expected = canonicalArgs(args);
    expect(p).toEqual({ name: "write_file", args, canonical_args: expected.canonical, args_hash: expected.hash, tool_call_id: expect.stringMatching(/^call_7-[0-9a-f]{8}$/) });
    expect(p?.canonical_args).toBe('{"content":"ünïcode é \\"q\\"\\n","path":"summary.md"}');
    expect(p?.args_hash).toMatch(/^[0-9a-f]{64}$/);
    // The assistant's tool call is appended to the branch's conversation, after the step prompt.
    const msgs = t[0]?.arg?.branch.executor_messages ?? [];
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(msgs[1]).toEqual({ role: "assistant", content: [{ type: "tool-call", toolCallId: p?.tool_call_id, toolName: "write_file", input: args }] });
    expect(mirrored(cmd)).toMatchObject({ phase: "running", proposed_tool: p, last_tool_result: null });
    expect(updateOf(cmd)).toMatchObject({ token_usage: { input_tokens: 10, output_tokens: 5 }, step_usage: { s0: { input_tokens: 10, output_tokens: 5 } } });
    expect(chunks).toMatchObject([{ type: "data-tool", id: p?.tool_call_id, data: { toolName: "write_file", argsHash: expected.hash, status: "proposed" } }]);
  });

  it("the same call id from the model gets a unique suffix each time", async () => {
    const deps = fakeDeps([toolTurn("read_file", { path: "a" }, "call_1"), toolTurn("read_file", { path: "a" }, "call_1")]);
    const a = targets(await executorNode(deps)(branchTask()))[0]?.arg?.branch.proposed_tool?.tool_call_id;
    const b = targets(await executorNode(deps)(branchTask()))[0]?.arg?.branch.proposed_tool?.tool_call_id;
    expect(a).not.toBe(b);
  });

  it("a text reply completes the branch with the answer -> Supervisor (never another step)", async () => {
    const deps = fakeDeps([textTurn("  notes.md says hello  ")]);
    const cmd = await executorNode(deps)(branchTask());
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(mirrored(cmd)).toMatchObject({ phase: "done", output: { step_id: "s0", text: "notes.md says hello", ok: true } });
    expect(updateOf(cmd)).toMatchObject({ lifecycle: "STEP_REVIEW", step_usage: { s0: { input_tokens: 10, output_tokens: 5 } } });
    // The Executor never edits the plan.
    expect(updateOf(cmd).plan).toBeUndefined();
  });

  it("a reply after a failed call is a failed try with the call's error, whatever the reply claims", async () => {
    const deps = fakeDeps([textTurn("Here is todo.md: ERROR: no such file")]);
    const call: ModelMessage = { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "read_file", input: { path: "todo.md" } }] };
    const failed = {
      tool_name: "read_file",
      call_id: "c1",
      output: "File not found: todo.md",
      status: "error" as const,
      evicted: false,
      pointer: null,
      size_chars: 23,
      rehydration_allowed: false,
      metadata: {},
    };
    const result: ModelMessage = { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "read_file", output: { type: "text", value: "ERROR: File not found: todo.md" } }] };
    const cmd = await executorNode(deps)(branchTask({ executor_messages: [{ role: "user", content: "Read todo.md" }, call, result], last_tool_result: failed }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(mirrored(cmd)?.output).toEqual({ step_id: "s0", ok: false, text: "read_file todo.md failed: File not found: todo.md" });
  });

  it("a reply after a failed call that the agent then made good (a later call succeeded) completes the step", async () => {
    const deps = fakeDeps([textTurn("Read notes.md instead.")]);
    const ok = { tool_name: "read_file", call_id: "c2", output: "hello", status: "success" as const, evicted: false, pointer: null, size_chars: 5, rehydration_allowed: false, metadata: {} };
    const cmd = await executorNode(deps)(branchTask({ executor_messages: [{ role: "user", content: "Read a note" }], last_tool_result: ok }));
    expect(mirrored(cmd)?.output).toMatchObject({ ok: true, text: "Read notes.md instead." });
  });

  it("a later step is told every earlier Human input answer (not only its dependencies') and a review's feedback", async () => {
    const doc: FlowDocument = {
      ...workspaceAssistant,
      nodes: [...workspaceAssistant.nodes, { id: "ask", type: "human_input", position: { x: 0, y: 0 }, data: { name: "Audience", prompt: "Who is it for?" } } as never],
    };
    const deps = fakeDeps([textTurn("ok")], doc);
    const p = plan([
      step(0, { agent_id: "ask", status: "completed", task: "Who is it for?", result: "for the engineering managers; focus on deadlines" }),
      step(1, { status: "completed", task: "Read notes.md", result: "NOTES" }),
      step(2, { status: "in_progress", tries: 1, depends_on: ["s1"], task: "Write the summary", feedback: "Verdict: changes needed\n- Unused source: b.md" }),
    ]);
    await executorNode(deps)(branchTask({ step_id: "s2" }, p));
    const prompt = JSON.stringify(deps.model.doGenerateCalls[0]?.prompt);
    expect(prompt).toContain("for the engineering managers; focus on deadlines");
    expect(prompt).toContain("NOTES");
    expect(prompt).toContain("Unused source: b.md");
  });

  it("an empty reply still completes the step with a placeholder", async () => {
    const cmd = await executorNode(fakeDeps([textTurn("")]))(branchTask());
    expect(mirrored(cmd)?.output).toMatchObject({ ok: true, text: expect.stringContaining("without a reply") });
  });

  it("a model error is a failed try (ok=false) for the Supervisor to retry", async () => {
    const deps = fakeDeps(() => {
      throw new Error("rate limited");
    });
    const cmd = await executorNode(deps)(branchTask({ executor_messages: [{ role: "user", content: "old" }] }));
    expect(gotoOf(cmd)).toBe("supervisor");
    expect(mirrored(cmd)).toMatchObject({ phase: "done", executor_messages: [], output: { step_id: "s0", ok: false, text: "model error: rate limited" } });
    expect(updateOf(cmd).plan).toBeUndefined();
  });

  it("offers the model only the tools wired to the step's agent, and report_impossible (never run)", async () => {
    const doc: FlowDocument = {
      ...workspaceAssistant,
      nodes: [
        ...workspaceAssistant.nodes,
        { id: "reader", type: "agent", position: { x: 0, y: 0 }, data: { name: "Reader", role: "step_executor", instructions: "Read only.", model: "", maxTries: 3, icon: "R", color: "#123456" } },
      ],
      edges: [...workspaceAssistant.edges, { id: "e-r", source: "reader", target: "t-read" }, { id: "e-l", source: "reader", target: "t-list" }],
    };
    const deps = fakeDeps([textTurn("ok")], doc);
    const p = plan([step(0, { status: "in_progress", tries: 1, agent_id: "reader" })]);
    await executorNode(deps)(branchTask({ agent: { id: "reader", name: "Reader", icon: "R", color: "#123456" } }, p));
    const call = deps.model.doGenerateCalls[0];
    expect(call?.tools?.map((t) => t.name).sort()).toEqual(["list_files", "read_file", "report_impossible"]);
    expect(JSON.stringify(call?.prompt)).toContain("You are Reader (agent reader).");
  });

  it("the first prompt has the step and the results of the steps it depends on; later turns reuse the branch conversation", async () => {
    const p = plan([
      step(0, { status: "completed", task: "Read notes.md", result: "NOTES-TEXT" }),
      step(1, { status: "completed", task: "Read other.md", result: "OTHER-TEXT" }),
      step(2, { status: "in_progress", tries: 1, task: "Write summary.md", depends_on: ["s0"] }),
    ]);
    const deps = fakeDeps([textTurn("done"), textTurn("done")]);
    await executorNode(deps)({ ...branchTask({}, p), branch: { ...branchTask().branch, step_id: "s2" } });
    const first = JSON.stringify(deps.model.doGenerateCalls[0]?.prompt);
    expect(first).toContain("Step 3 of 3.");
    expect(first).toContain("Write summary.md");
    expect(first).toContain("NOTES-TEXT");
    expect(first).not.toContain("OTHER-TEXT");

    const history: ModelMessage[] = [{ role: "user", content: "EARLIER-PROMPT" }];
    await executorNode(deps)(branchTask({ executor_messages: history }));
    const second = JSON.stringify(deps.model.doGenerateCalls[1]?.prompt);
    expect(second).toContain("EARLIER-PROMPT");
    expect(second).not.toContain("<step-task>");
  });

  it("a branch whose step is gone is reported as failed without calling the model", async () => {
    const deps = fakeDeps([textTurn("x")]);
    const cmd = await executorNode(deps)({ ...branchTask(), branch: { ...branchTask().branch, step_id: "missing", agent: assistantAgent } });
    expect(deps.model.doGenerateCalls).toHaveLength(0);
    expect(mirrored(cmd, "missing")?.output).toMatchObject({ ok: false });
  });
});
