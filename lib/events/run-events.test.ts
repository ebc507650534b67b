import { afterEach, describe, expect, it } from "vitest";
import type { RunChunk } from "./ui-parts";
import { type BusEvent, publish, subscribe } from "./bus";
import { busEventOf, busEventsOf, eventsOf, type NamerState, RunEventName, storedEventOf, topicOf } from "./run-events";

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

/** Each stored event goes out on one bus topic (issue 6; seed 004 names) and comes back as the same RunEvent. */
describe("run events on the bus", () => {
  const ids = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", threadId: "t1", runId: "r1" };
  const step = { id: "s0", index: 0, task: "Read notes.md", agentId: "a", agentName: "A", status: "in_progress" as const, tries: 1, result: null, error: null };
  const tool = { toolCallId: "c1", toolName: "read_file", args: { path: "notes.md" }, argsHash: "h", decision: null, rule: null, output: null };
  const stops: (() => void)[] = [];
  afterEach(() => {
    for (const stop of stops.splice(0)) stop();
  });

  it("maps every event name to its topic; a tool result by its status", () => {
    const expected: Record<RunEventName, string> = {
      user_message: "task.created",
      intent_classified: "task.classified",
      run_started: "task.started",
      run_suspended: "task.blocked",
      run_completed: "task.completed",
      run_failed: "task.failed",
      plan_generated: "task.planned",
      plan_updated: "task.planned",
      plan_completed: "task.planned",
      plan_failed: "task.planned",
      lifecycle_transition: "task.lifecycle",
      final_answer: "task.answered",
      agent_handoff: "agent.handoff",
      agent_changed: "agent.handoff",
      plan_step_started: "agent.started",
      plan_step_completed: "agent.completed",
      plan_step_failed: "agent.error",
      tool_call_proposed: "agent.tool_called",
      risk_decision: "tool.risk_decided",
      approval_required: "tool.approval_required",
      outcome_unknown: "tool.outcome_unknown",
      tool_running: "tool.invoked",
      tool_rejected: "tool.rejected",
      tool_result: "tool.success",
      memory_injected: "memory.retrieved",
    };
    for (const name of RunEventName.options) expect(topicOf(name, { type: "data-tool", data: { status: "done" } })).toBe(expected[name]);
    expect(topicOf("tool_result", { type: "data-tool", data: { status: "error" } })).toBe("tool.failed");
  });

  it("publishes a run's chunks as valid bus events that a subscriber stores back as the same RunEvents", async () => {
    const chunks: RunChunk[] = [
      { type: "data-run", id: "r1", data: { runId: "r1", traceId: ids.traceId, status: "running", model: null, error: null } },
      { type: "data-plan", id: "p", data: { planId: "p", status: "executing", steps: [step] } },
      { type: "data-handoff", id: "h1", data: { from: "supervisor", to: "a", agentName: "A", icon: "x", color: "#000000", reason: "plan_step", stepId: "s0" } },
      { type: "data-step", id: "s0", data: { ...step, event: "plan_step_started" } },
      {
        type: "data-memory",
        id: "m",
        data: {
          stepId: "s0",
          agentId: "a",
          query: "notes",
          shortTerm: [{ id: "e1", agentId: "a", action: "read", result: "ok", createdAt: "2026-01-01T00:00:00.000Z" }],
          facts: [{ id: "f1", content: "x", tags: [], score: 1, via: ["lexical"], source: { threadId: null, stepId: null } }],
        },
      },
      { type: "data-tool", id: "c1", data: { ...tool, status: "proposed" } },
      { type: "data-tool", id: "c1", data: { ...tool, status: "error", output: "no such file" } },
      { type: "data-step", id: "s0", data: { ...step, status: "failed", event: "plan_step_failed" } },
      { type: "data-lifecycle", id: "l1", data: { from: "STEP_EXECUTION", to: "FAILED", node: "supervisor", at: "2026-01-01T00:00:00.000Z" } },
      { type: "text", id: "t", text: "Could not read it." },
      { type: "data-run", id: "r1", data: { runId: "r1", traceId: ids.traceId, status: "failed", model: null, error: { code: "step_failed", message: "no" } } },
    ];
    const got: { topic: string; name: string; data: unknown; streamed: boolean }[] = [];
    stops.push(
      subscribe(
        "*",
        (e) => {
          const stored = storedEventOf(e);
          if (stored) got.push({ topic: e.topic, name: stored.name, data: stored.data, streamed: stored.chunk !== null });
        },
        { runId: "r1" },
      ),
    );
    const seen: NamerState = { plans: new Set(), agent: null };
    await publish(busEventOf("user_message", { text: "Read notes.md", kind: "message" }, ids, 1));
    await publish(busEventOf("intent_classified", { type: "event", name: "intent_classified", payload: { intent: "task" } }, ids, 1));
    let retrieved: BusEvent | undefined;
    for (const chunk of chunks) {
      for (const e of busEventsOf(chunk, seen, ids, 2)) {
        if (e.topic === "memory.retrieved") retrieved = e;
        await publish(e);
      }
    }
    expect(got.map((g) => `${g.topic} ${g.name}`)).toEqual([
      "task.created user_message",
      "task.classified intent_classified",
      "task.started run_started",
      "task.planned plan_generated",
      "agent.handoff agent_handoff",
      "agent.handoff agent_changed",
      "agent.started plan_step_started",
      "memory.retrieved memory_injected",
      "agent.tool_called tool_call_proposed",
      "tool.failed tool_result",
      "agent.error plan_step_failed",
      "task.lifecycle lifecycle_transition",
      "task.answered final_answer",
      "task.failed run_failed",
    ]);
    // Stream parts are stored as they are and streamed; derived events only stored.
    expect(got.filter((g) => g.streamed).map((g) => g.data)).toEqual(chunks);
    expect(got.filter((g) => !g.streamed).map((g) => g.data)).toEqual([
      { text: "Read notes.md", kind: "message" },
      { type: "event", name: "intent_classified", payload: { intent: "task" } },
      { type: "event", name: "agent_changed", payload: { from: null, to: "a", agentName: "A" } },
    ]);
    expect(retrieved?.data).toMatchObject({ agentId: "a", stepId: "s0", shortTerm: 1, factIds: ["f1"], name: "memory_injected" });
  });

  it("a memory.retrieved published without its stream part is not a run event", () => {
    const e: BusEvent = { ...ids, at: 1, topic: "memory.retrieved", data: { agentId: "a", stepId: null, shortTerm: 0, factIds: [] } };
    expect(storedEventOf(e)).toBeNull();
    expect(storedEventOf({ ...ids, at: 1, topic: "approval.created", data: { approvalId: "a", status: "pending" } })).toBeNull();
  });
});
