import { describe, expect, it } from "vitest";
import { workspaceAssistant } from "../../../templates/workspace-assistant";
import type { FlowDocument } from "../../flow/schema";
import type { Plan } from "../state";
import { baseState, fakeDeps, plan, recorder, step, textTurn, toolTurn } from "./fake-deps";
import { plannerNode } from "./planner";

/** Planner (docs/architecture.md#nodes): a plan from the forced create_plan tool, checked before it is stored. */

const ask = (content: string) => baseState({ messages: [{ role: "user", content }] });

/** The Workspace assistant plus a second agent "writer" with write_file only. */
const twoAgents: FlowDocument = {
  ...workspaceAssistant,
  nodes: [
    ...workspaceAssistant.nodes,
    { id: "writer", type: "agent", position: { x: 0, y: 0 }, data: { name: "Writer", role: "step_executor", instructions: "", model: "", maxTries: 2, icon: "✍", color: "#112233" } },
  ],
  edges: [...workspaceAssistant.edges, { id: "e-w", source: "writer", target: "t-write" }],
};

describe("plannerNode", () => {
  it("stores the create_plan steps: pending, agents resolved, depends_on mapped from indexes to step ids", async () => {
    const deps = fakeDeps(
      [
        toolTurn("create_plan", {
          steps: [
            { agent_id: "assistant", task: "Read notes.md", expected_output: "the text", depends_on: [] },
            { agent_id: "writer", task: "Write summary.md", expected_output: "a file", depends_on: [0] },
            { agent_id: "nobody", task: "Report", expected_output: "", depends_on: [0, 1, 2, 7] },
          ],
        }),
      ],
      twoAgents,
    );
    const { config, chunks } = recorder();
    const out = await plannerNode(deps)(ask("Summarize notes.md into summary.md"), config as never);
    const p = out.plan as Plan;
    expect(p).toMatchObject({ status: "executing", query: "Summarize notes.md into summary.md", current_step_index: 0, failure_reason: null });
    expect(p.steps.map((s) => [s.index, s.agent_id, s.task, s.status, s.tries, s.max_tries])).toEqual([
      [0, "assistant", "Read notes.md", "pending", 0, 3],
      [1, "writer", "Write summary.md", "pending", 0, 2],
      // Unknown agent: the first agent, with its max tries.
      [2, "assistant", "Report", "pending", 0, 3],
    ]);
    const [a, b, c] = p.steps;
    expect(new Set(p.steps.map((s) => s.id)).size).toBe(3);
    expect(a?.depends_on).toEqual([]);
    expect(b?.depends_on).toEqual([a?.id]);
    // Self (2) and forward (7) dependencies are dropped.
    expect(c?.depends_on).toEqual([a?.id, b?.id]);
    expect(out).toMatchObject({ lifecycle: "PLAN_CHECK", replan_reason: null, token_usage: { input_tokens: 10, output_tokens: 5 } });
    expect(out.error).toBeUndefined();
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({
      type: "data-plan",
      id: p.id,
      data: { planId: p.id, status: "executing", steps: [{ agentName: "Assistant" }, { agentName: "Writer" }, { agentName: "Assistant" }] },
    });
  });

  it("forces create_plan and lists the agents with their tools in the system prompt", async () => {
    const deps = fakeDeps([toolTurn("create_plan", { steps: [{ agent_id: "assistant", task: "Read notes.md", expected_output: "", depends_on: [] }] })]);
    await plannerNode(deps)(ask("Read notes.md"));
    const call = deps.model.doGenerateCalls[0];
    expect(call?.toolChoice).toEqual({ type: "tool", toolName: "create_plan" });
    expect(call?.tools?.map((t) => t.name)).toEqual(["create_plan"]);
    const prompt = JSON.stringify(call?.prompt);
    expect(prompt).toContain("[phylactery:planner]");
    expect(prompt).toContain("agent assistant | Assistant | tools: list_files, read_file, write_file, delete_file, rehydrate");
    expect(prompt).toContain("<task>\\nRead notes.md\\n</task>");
  });

  it("a model error leaves a failed plan with the reason and a structured plan_failed error", async () => {
    const deps = fakeDeps(() => {
      throw new Error("provider down");
    });
    const { config, chunks } = recorder();
    const out = await plannerNode(deps)(ask("Summarize notes.md"), config as never);
    expect(out.plan).toMatchObject({ status: "failed", steps: [], failure_reason: "provider down", query: "Summarize notes.md" });
    expect(out.error).toEqual({ code: "plan_failed", message: "The planner could not make a plan: provider down", severity: "CRITICAL", retryable: false, suggested_action: "HALT" });
    expect(out.lifecycle).toBe("FAILED");
    expect(chunks).toMatchObject([{ type: "data-plan", data: { status: "failed", steps: [] } }]);
  });

  it("a reply without create_plan, twice, is a failed plan naming what the model did, not an empty one", async () => {
    const deps = fakeDeps([textTurn("Sure, I will do it."), textTurn("Sure, I will do it.")]);
    const out = await plannerNode(deps)(ask("Summarize notes.md"));
    expect(out.plan).toMatchObject({ status: "failed", steps: [], failure_reason: expect.stringMatching(/^the model answered in prose twice, though it was asked again with the error/) });
    expect(out.error).toMatchObject({ code: "plan_failed" });
    expect(deps.model.doGenerateCalls).toHaveLength(2);
  });

  it("a reply without create_plan is sent back with the error once; the second answer's plan is used and both answers' tokens count", async () => {
    const deps = fakeDeps([textTurn("Sure, I will do it."), toolTurn("create_plan", { steps: [{ agent_id: "assistant", task: "Read notes.md", expected_output: "", depends_on: [] }] })]);
    const out = await plannerNode(deps)(ask("Summarize notes.md"));
    expect(out.plan).toMatchObject({ status: "executing", steps: [{ task: "Read notes.md", status: "pending" }] });
    expect(deps.model.doGenerateCalls).toHaveLength(2);
    const again = JSON.stringify(deps.model.doGenerateCalls[1]?.prompt);
    expect(again).toContain("Sure, I will do it.");
    expect(again).toContain("That was not a usable plan: you answered in prose");
    expect(out.token_usage).toEqual({ input_tokens: 20, output_tokens: 10 });
  });

  it("a plan that breaks the proposal schema (no steps), twice, fails", async () => {
    const out = await plannerNode(fakeDeps([toolTurn("create_plan", { steps: [] }), toolTurn("create_plan", { steps: [] })]))(ask("Summarize notes.md"));
    expect(out.plan).toMatchObject({ status: "failed", steps: [], failure_reason: expect.stringContaining("the model sent a plan that fails the schema twice") });
    expect(out.error).toMatchObject({ code: "plan_failed" });
  });

  it("re-planning plans the failed plan's query again with the reason in the prompt", async () => {
    const deps = fakeDeps([toolTurn("create_plan", { steps: [{ agent_id: "assistant", task: "Read release-notes.md", expected_output: "", depends_on: [] }] })]);
    const failed = plan([step(0, { status: "failed" })], { status: "failed", query: "Summarize notes.md" });
    const out = await plannerNode(deps)(baseState({ plan: failed, replan_reason: "Step 1 failed: no such file", messages: [{ role: "user", content: "a later message" }] }));
    expect(out).toMatchObject({ plan: { status: "executing", query: "Summarize notes.md" }, replan_reason: null });
    expect((out.plan as Plan).id).not.toBe(failed.id);
    const prompt = JSON.stringify(deps.model.doGenerateCalls[0]?.prompt);
    expect(prompt).toContain("<replan>\\nStep 1 failed: no such file\\n</replan>");
  });

  it("directed mode: a single step for the first agent with the task, no model call", async () => {
    const deps = fakeDeps([], { ...workspaceAssistant, settings: { ...workspaceAssistant.settings, mode: "directed" } });
    const { config, chunks } = recorder();
    const out = await plannerNode(deps)(ask("Read notes.md"), config as never);
    expect(out.plan).toMatchObject({ status: "executing", steps: [{ index: 0, agent_id: "assistant", task: "Read notes.md", status: "pending", depends_on: [], max_tries: 3 }] });
    expect((out.plan as Plan).steps).toHaveLength(1);
    expect(deps.model.doGenerateCalls).toHaveLength(0);
    expect(out.token_usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    expect(chunks.map((c) => c.type)).toEqual(["data-plan"]);
  });
});
