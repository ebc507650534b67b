import { describe, expect, it } from "vitest";
import type { RunChunk } from "../engine/ui-parts";
import { eventsOf, type NamerState } from "./run-events";

/** Chunks are named as the events of issue 3, payloads validated by their schemas. */
describe("eventsOf", () => {
  const step = { id: "s0", index: 0, task: "Read notes.md", agentId: "a", agentName: "A", status: "in_progress" as const, tries: 1, result: null, error: null };
  const tool = { toolCallId: "c1", toolName: "write_file", args: {}, argsHash: "h", decision: null, rule: null, output: null };

  it("names a run's chunks in order", () => {
    const seen: NamerState = { plans: new Set(), agent: null };
    const chunks: RunChunk[] = [
      { type: "data-run", id: "r", data: { runId: "r", status: "running", model: null, error: null } },
      { type: "data-plan", id: "p", data: { planId: "p", status: "executing", steps: [step] } },
      { type: "data-handoff", id: "h1", data: { from: "supervisor", to: "a", agentName: "A", icon: "x", color: "#000000", reason: "plan_step", stepId: "s0" } },
      { type: "data-step", id: "s0", data: { ...step, event: "plan_step_started" } },
      { type: "data-tool", id: "c1", data: { ...tool, status: "proposed" } },
      { type: "data-tool", id: "c1", data: { ...tool, status: "awaiting_approval", decision: "AUTH_REQUIRED" } },
      { type: "data-approval", id: "ap", data: { approvalId: "ap", toolName: "write_file", toolCallId: "c1", canonicalArgs: "{}", argsHash: "h", token: "t", expiresAt: "x", status: "pending" } },
      { type: "data-plan", id: "p", data: { planId: "p", status: "executing", steps: [step] } },
      { type: "data-handoff", id: "h2", data: { from: "supervisor", to: "a", agentName: "A", icon: "x", color: "#000000", reason: "error_recovery", stepId: "s0" } },
      { type: "data-tool", id: "c1", data: { ...tool, status: "done", output: "ok" } },
      { type: "data-plan", id: "p", data: { planId: "p", status: "completed", steps: [step] } },
      { type: "text", id: "t", text: "Done." },
      { type: "data-run", id: "r", data: { runId: "r", status: "completed", model: null, error: null } },
    ];
    expect(chunks.flatMap((c) => eventsOf(c, seen).map((e) => e.name))).toEqual([
      "run_started",
      "plan_generated",
      "agent_handoff",
      "agent_changed",
      "plan_step_started",
      "tool_call_proposed",
      "risk_decision",
      "approval_required",
      "plan_updated",
      "agent_handoff",
      "tool_result",
      "plan_completed",
      "final_answer",
      "run_completed",
    ]);
  });

  it("refuses a payload that breaks its schema", () => {
    const bad = { type: "data-step", id: "s0", data: { ...step, tries: "one", event: "plan_step_started" } } as unknown as RunChunk;
    expect(() => eventsOf(bad, { plans: new Set(), agent: null })).toThrow();
  });
});
