import { describe, expect, it } from "vitest";
import { baseState, fakeDeps, plan, step } from "./node-fixtures";
import { missingTimelineParts, type StoredEventRow } from "./timeline-repair";
import type { RunChunk } from "../events/ui-parts";

/** What a recovered run adds to a timeline its dead worker left behind (docs/durability.md "Events after a crash"). */
describe("missingTimelineParts", () => {
  const { flow } = fakeDeps();
  const at = "2026-03-01T10:00:00.000Z";
  const row = (type: string, chunk: RunChunk): StoredEventRow => ({ type, data: JSON.stringify(chunk) });
  const started = step(0, { status: "in_progress", tries: 1 });
  const done = step(0, { status: "completed", tries: 1, result: "ok" });
  const told = [
    row("plan_generated", { type: "data-plan", id: "p1", data: { planId: "p1", status: "executing", steps: [] } }),
    row("plan_step_started", {
      type: "data-step",
      id: started.id,
      data: {
        id: started.id,
        index: 0,
        task: started.task,
        agentId: started.agent_id,
        agentName: "A",
        status: "in_progress",
        tries: 1,
        dependsOn: [],
        result: null,
        error: null,
        usage: null,
        event: "plan_step_started",
      },
    }),
    row("lifecycle_transition", { type: "data-lifecycle", id: "r-0-1", data: { from: "PLANNING", to: "EXECUTING", node: "supervisor", at } }),
  ];
  const state = baseState({
    plan: plan([done], { id: "p1", status: "completed" }),
    lifecycle: "COMPLETED",
    messages: [
      { role: "user", content: "Summarize notes.md" },
      { role: "assistant", content: "The summary." },
    ],
    final_answer: "The summary.",
  });

  it("tells the step's end, the plan's, the final lifecycle transition and the answer the timeline lacks, in that order", () => {
    const parts = missingTimelineParts(told, state, flow, "r", at);
    expect(parts.map((p) => p.type)).toEqual(["data-step", "data-plan", "data-lifecycle", "text"]);
    expect(parts[0]).toMatchObject({ id: done.id, data: { status: "completed", event: "plan_step_completed" } });
    expect(parts[1]).toMatchObject({ id: "p1", data: { status: "completed" } });
    expect(parts[2]).toMatchObject({ data: { from: "EXECUTING", to: "COMPLETED", node: "recovery" } });
    expect(parts[3]).toEqual({ type: "text", id: "final-1", text: "The summary." });
  });

  it("leaves a step and a plan the timeline took further than the state (their node's events stored before its writes): the resumed node tells them again", () => {
    const ahead = [
      ...told,
      row("plan_step_completed", { type: "data-step", id: done.id, data: { ...JSON.parse(told[1]?.data ?? "{}").data, status: "completed", event: "plan_step_completed" } }),
      row("plan_completed", { type: "data-plan", id: "p1", data: { planId: "p1", status: "completed", steps: [] } }),
    ];
    const behind = baseState({ plan: plan([started], { id: "p1", status: "executing" }), lifecycle: "STEP_EXECUTION" });
    const stepsAndPlans = (parts: RunChunk[]) => parts.filter((p) => p.type === "data-step" || p.type === "data-plan");
    expect(stepsAndPlans(missingTimelineParts(ahead, behind, flow, "r", at))).toEqual([]);
    // A later try of a failed step is the state's news, and is told.
    const failed = row("plan_step_failed", { type: "data-step", id: done.id, data: { ...JSON.parse(told[1]?.data ?? "{}").data, status: "failed", event: "plan_step_failed" } });
    const retried = baseState({ plan: plan([step(0, { status: "in_progress", tries: 2 })], { id: "p1", status: "executing" }), lifecycle: "STEP_EXECUTION" });
    expect(stepsAndPlans(missingTimelineParts([...told, failed], retried, flow, "r", at))).toMatchObject([{ type: "data-step", data: { status: "in_progress", tries: 2 } }]);
  });

  it("adds nothing once the timeline says what the state says (a second repair writes nothing)", () => {
    const parts = missingTimelineParts(told, state, flow, "r", at);
    const repaired = [...told, ...parts.map((p) => row("repaired", p))];
    expect(missingTimelineParts(repaired, state, flow, "r", at)).toEqual([]);
  });
});
