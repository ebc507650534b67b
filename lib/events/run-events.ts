import { z } from "zod";
import { dataSchemas, type RunChunk, type RunDataTypes } from "./ui-parts";
import type { BusEvent, BusTopic, TraceIds } from "./bus";

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
  "outcome_unknown",
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
  outcome_unknown: dataSchemas.outcome,
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
      // An incomplete run ended too: its report (status, answer) says what was not done.
      add(s === "running" ? "run_started" : s === "completed" || s === "incomplete" ? "run_completed" : s === "failed" ? "run_failed" : "run_suspended", chunk.data);
      break;
    }
    case "data-plan": {
      const s = chunk.data.status;
      const first = !seen.plans.has(chunk.data.planId);
      seen.plans.add(chunk.data.planId);
      add(s === "completed" || s === "incomplete" ? "plan_completed" : s === "failed" ? "plan_failed" : first ? "plan_generated" : "plan_updated", chunk.data);
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
    case "data-outcome":
      add("outcome_unknown", chunk.data);
      break;
    case "data-lifecycle":
      add("lifecycle_transition", chunk.data);
      break;
    case "data-memory":
      add("memory_injected", chunk.data);
      break;
    default: {
      const unknown: never = chunk;
      throw new Error(`eventsOf: no event for chunk ${JSON.stringify(unknown)}`);
    }
  }
  return out;
}

/**
 * The bus topic of each stored event (SPEC.md 7, seed 004: task.*, agent.*, tool.*,
 * memory.*). `tool_result` is `tool.success` or `tool.failed` by the call's status.
 */
const TOPICS: Record<RunEventName, BusTopic> = {
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

/**
 * The topic an event goes out on (see {@link TOPICS}).
 * @param stored what the RunEvent stores (for tool_result, the data-tool part).
 */
export function topicOf(name: RunEventName, stored: unknown): BusTopic {
  if (name === "tool_result") return (stored as { data?: { status?: string } }).data?.status === "error" ? "tool.failed" : "tool.success";
  return TOPICS[name];
}

/**
 * The bus event of one stored run event: `{ name, chunk: stored }` on its topic; a
 * memory_injected event also carries what memory.retrieved names (agent, step, how many
 * short-term entries, the fact ids).
 * @param stored what the RunEvent stores: the stream part, or the record of an event no
 *   part stands for (`{ type: "event", name, payload }`; `{ text, kind }` for user_message).
 * @param at ms since the epoch.
 */
export function busEventOf(name: RunEventName, stored: unknown, ids: TraceIds, at: number): BusEvent {
  const topic = topicOf(name, stored);
  if (name === "memory_injected") {
    const m = (stored as { data: RunDataTypes["memory"] }).data;
    return { ...ids, at, topic: "memory.retrieved", data: { agentId: m.agentId, stepId: m.stepId, shortTerm: m.shortTerm.length, factIds: m.facts.map((f) => f.id), name, chunk: stored as never } };
  }
  return { ...ids, at, topic, data: { name, chunk: stored } } as BusEvent;
}

/**
 * The bus events a stream chunk stands for, in order (see {@link eventsOf}): the first
 * carries the chunk itself, any further one (agent_changed) its stored record.
 * @throws ZodError when a payload does not match its event's schema (an engine bug).
 */
export function busEventsOf(chunk: RunChunk, seen: NamerState, ids: TraceIds, at: number): BusEvent[] {
  return eventsOf(chunk, seen).map((e, i) => busEventOf(e.name, i === 0 ? chunk : { type: "event", name: e.name, payload: e.payload }, ids, at));
}

/** A run event read back from the bus: its name, what to store, and the part to stream (if any). */
export interface StoredRunEvent {
  name: RunEventName;
  /** The RunEvent's `data`. */
  data: unknown;
  /** The chunk the run's stream yields, or null for a stored-only event. */
  chunk: RunChunk | null;
}

/**
 * The run event a bus event stands for, or null when it is not one (e.g. memory.appended,
 * approval.*, or a memory.retrieved published without its stream part).
 */
export function storedEventOf(event: BusEvent): StoredRunEvent | null {
  const data = event.data as { name?: unknown; chunk?: unknown };
  const name = RunEventName.safeParse(data.name);
  if (!name.success || data.chunk === undefined) return null;
  const type = (data.chunk as { type?: unknown } | null)?.type;
  const streamed = typeof type === "string" && type !== "event";
  return { name: name.data, data: data.chunk, chunk: streamed ? (data.chunk as RunChunk) : null };
}
