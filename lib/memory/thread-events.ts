import { z } from "zod";
import type { Db } from "../db/client";
import { prismaRunStore } from "../runs/store-prisma";

/**
 * Reading a finished thread's stored run events (lib/events/run-events.ts) for promote and
 * summarize: plan steps with their outcome, the task, the final answer.
 */

const StepChunk = z.object({
  type: z.literal("data-step"),
  data: z.object({
    id: z.string(),
    task: z.string(),
    agentId: z.string(),
    agentName: z.string(),
    status: z.string(),
    result: z.string().nullable().optional(),
    error: z.string().nullable().optional(),
  }),
});

/** A plan step's last known outcome. */
export interface StepOutcome {
  id: string;
  task: string;
  agentId: string;
  agentName: string;
  status: string;
  result: string | null;
  error: string | null;
}

/** The thread's events of these types, oldest first, with their JSON data parsed (null when unreadable). */
async function eventsOf(db: Db, threadId: string, types: string[]): Promise<{ type: string; runId: string | null; data: unknown }[]> {
  const rows = await prismaRunStore(db).events({ threadId, types });
  return rows.map((r) => {
    try {
      return { type: r.type, runId: r.runId, data: JSON.parse(r.data) as unknown };
    } catch {
      return { type: r.type, runId: r.runId, data: null };
    }
  });
}

/**
 * Each plan step's last outcome (plan_step_completed / plan_step_failed events), in the order
 * the steps first finished. `types` picks which events count.
 */
export async function stepOutcomes(db: Db, threadId: string, types: string[] = ["plan_step_completed", "plan_step_failed"]): Promise<StepOutcome[]> {
  const steps = new Map<string, StepOutcome>();
  for (const ev of await eventsOf(db, threadId, types)) {
    const parsed = StepChunk.safeParse(ev.data);
    if (!parsed.success) continue;
    const s = parsed.data.data;
    steps.set(s.id, { id: s.id, task: s.task, agentId: s.agentId, agentName: s.agentName, status: s.status, result: s.result ?? null, error: s.error ?? null });
  }
  return [...steps.values()];
}

/** The text of the thread's first user message, or null. */
export async function firstTask(db: Db, threadId: string): Promise<string | null> {
  const [first] = await eventsOf(db, threadId, ["user_message"]);
  const parsed = z.object({ text: z.string() }).safeParse(first?.data);
  return parsed.success ? parsed.data.text : null;
}

/** The final answer: the final_answer texts of the last run that gave one, joined; or null. */
export async function finalAnswer(db: Db, threadId: string): Promise<string | null> {
  const answers = (await eventsOf(db, threadId, ["final_answer"])).flatMap((ev) => {
    const parsed = z.object({ text: z.string() }).safeParse(ev.data);
    return parsed.success ? [{ runId: ev.runId, text: parsed.data.text }] : [];
  });
  const last = answers.at(-1);
  if (!last) return null;
  return answers
    .filter((a) => a.runId === last.runId)
    .map((a) => a.text)
    .join(" ");
}
