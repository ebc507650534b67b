import { z } from "zod";
import { dataSchemas, type RunChunk } from "../engine/ui-parts";

/**
 * The run's named events (SPEC.md 7, issue 3): each stream chunk is stored as a RunEvent
 * whose `type` is one of these names and whose `data` is the chunk, so the stored timeline
 * can be queried by event and replayed as the same UI data parts.
 */
export const RunEventName = z.enum([
  "user_message",
  "intent_classified",
  "run_started",
  "run_suspended",
  "run_completed",
  "run_failed",
  "plan_generated",
  "plan_updated",
  "plan_completed",
  "plan_failed",
  "plan_step_started",
  "plan_step_completed",
  "plan_step_failed",
  "agent_handoff",
  "agent_changed",
  "tool_call_proposed",
  "risk_decision",
  "approval_required",
  "tool_running",
  "tool_rejected",
  "tool_result",
  "lifecycle_transition",
  "final_answer",
  "memory_injected",
]);
export type RunEventName = z.infer<typeof RunEventName>;

const text = z.object({ text: z.string() });
const agentChange = z.object({ from: z.string().nullable(), to: z.string(), agentName: z.string() });

/** The zod schema of each event's payload (the data part it carries). */
export const runEventSchemas: Record<RunEventName, z.ZodType> = {
  user_message: z.object({ text: z.string(), kind: z.string() }),
  intent_classified: z.object({ intent: z.enum(["task", "conversation"]) }),
  run_started: dataSchemas.run,
  run_suspended: dataSchemas.run,
  run_completed: dataSchemas.run,
  run_failed: dataSchemas.run,
  plan_generated: dataSchemas.plan,
  plan_updated: dataSchemas.plan,
  plan_completed: dataSchemas.plan,
  plan_failed: dataSchemas.plan,
  plan_step_started: dataSchemas.step,
  plan_step_completed: dataSchemas.step,
  plan_step_failed: dataSchemas.step,
  agent_handoff: dataSchemas.handoff,
  agent_changed: agentChange,
  tool_call_proposed: dataSchemas.tool,
  risk_decision: dataSchemas.tool,
  approval_required: dataSchemas.approval,
  tool_running: dataSchemas.tool,
  tool_rejected: dataSchemas.tool,
  tool_result: dataSchemas.tool,
  lifecycle_transition: dataSchemas.lifecycle,
  final_answer: text,
  memory_injected: dataSchemas.memory,
};

/** What the namer remembers across one run: plans seen and the last agent handed off to. */
export interface NamerState {
  plans: Set<string>;
  agent: string | null;
}

/**
 * Names the events a chunk stands for, in order (usually one; a handoff to another agent is
 * also `agent_changed`), each with its payload validated by its schema.
 * @throws ZodError when a payload does not match its event's schema (an engine bug).
 */
export function eventsOf(chunk: RunChunk, seen: NamerState): { name: RunEventName; payload: unknown }[] {
  const out: { name: RunEventName; payload: unknown }[] = [];
  const add = (name: RunEventName, payload: unknown) => out.push({ name, payload: runEventSchemas[name].parse(payload) });
  switch (chunk.type) {
    case "text":
      add("final_answer", { text: chunk.text });
      break;
    case "data-run": {
      const s = chunk.data.status;
      add(s === "running" ? "run_started" : s === "completed" ? "run_completed" : s === "failed" ? "run_failed" : "run_suspended", chunk.data);
      break;
    }
    case "data-plan": {
      const s = chunk.data.status;
      const first = !seen.plans.has(chunk.data.planId);
      seen.plans.add(chunk.data.planId);
      add(s === "completed" ? "plan_completed" : s === "failed" ? "plan_failed" : first ? "plan_generated" : "plan_updated", chunk.data);
      break;
    }
    case "data-step":
      add(chunk.data.event, chunk.data);
      break;
    case "data-handoff":
      add("agent_handoff", chunk.data);
      if (seen.agent !== chunk.data.to) add("agent_changed", { from: seen.agent, to: chunk.data.to, agentName: chunk.data.agentName });
      seen.agent = chunk.data.to;
      break;
    case "data-tool": {
      const s = chunk.data.status;
      const name: RunEventName =
        s === "proposed" ? "tool_call_proposed" : s === "running" ? "tool_running" : s === "rejected" ? "tool_rejected" : s === "done" || s === "error" ? "tool_result" : "risk_decision";
      add(name, chunk.data);
      break;
    }
    case "data-approval":
      add("approval_required", chunk.data);
      break;
    case "data-lifecycle":
      add("lifecycle_transition", chunk.data);
      break;
    case "data-memory":
      add("memory_injected", chunk.data);
      break;
  }
  return out;
}
