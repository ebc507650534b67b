import "server-only";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { announce } from "./announce";
import { FACTS_PER_STEP, factCandidates } from "./fact-candidates";
import { contentHash } from "./fact-view";
import { upsertFact } from "./long-term";
import { finalAnswer, firstTask, stepOutcomes } from "./thread-events";
import type { FactView } from "./types";

/**
 * Moving what a thread learned towards long-term memory (`promote` and
 * `summarize`: docs/architecture.md#memory).
 */

/** Longest promoted fact, chars. */
export const PROMOTED_FACT_CHARS = 500;
/** Longest thread summary, chars. */
export const SUMMARY_CHARS = 1_500;

function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

/** The thread with its workspace; refuses while a run streams on it. */
async function finishedThread(db: Db, threadId: string) {
  const thread = await db.thread.findUnique({ where: { id: threadId }, select: { id: true, status: true, updatedAt: true, flow: { select: { workspaceId: true } } } });
  if (!thread) throw new AppError("not_found", "thread_not_found", `No thread ${threadId}.`);
  // A queued or executing run leaves the thread "running" until it ended.
  if (thread.status === "running") throw new AppError("conflict", "run_in_progress", "A run is still going on this thread; wait for it to finish.");
  return thread;
}

/**
 * Proposes long-term facts from a thread (`promote`): from each completed plan step
 * (its stored `plan_step_completed` event), the statements worth keeping (decisions, dates,
 * figures, owners of work; at most {@link FACTS_PER_STEP}, see ./fact-candidates.ts), never
 * its bookkeeping ("Wrote 392 bytes to brief.md", "Read notes.md"), a failure, a review
 * verdict or a person's answer. Each fact is cut to {@link PROMOTED_FACT_CHARS} chars and
 * carries provenance { threadId, stepId } and tags ["promoted", <agent name, lower-cased>].
 * Candidates are "proposed" (a user accepts them on the memory page) or "accepted" when
 * `auto` (the flow's `settings.memory.autoPromote`). Facts already known (same normalised
 * content in the workspace) are skipped. Publishes `memory.promoted` with the new fact ids.
 * @returns the facts created.
 * @throws AppError not_found ("thread_not_found"); conflict ("run_in_progress") while a run
 *   streams on the thread.
 */
export async function promote(db: Db, input: { threadId: string; auto: boolean; userId: string | null }): Promise<FactView[]> {
  const thread = await finishedThread(db, input.threadId);
  const workspaceId = thread.flow.workspaceId;
  const created: FactView[] = [];
  for (const step of await stepOutcomes(db, input.threadId, ["plan_step_completed"])) {
    if (step.status !== "completed" || !step.result?.trim()) continue;
    for (const candidate of factCandidates({ task: step.task, result: step.result })) {
      const content = clip(candidate, PROMOTED_FACT_CHARS);
      const known = await db.memoryFact.findFirst({ where: { workspaceId, contentHash: contentHash(content) }, select: { id: true } });
      if (known) continue;
      const { fact, created: isNew } = await upsertFact(db, {
        workspaceId,
        content,
        tags: ["promoted", step.agentName.toLowerCase()],
        origin: "promoted",
        status: input.auto ? "accepted" : "proposed",
        source: { threadId: input.threadId, stepId: step.id },
        createdById: input.userId,
      });
      if (isNew) created.push(fact);
    }
  }
  if (created.length > 0) await announce("memory.promoted", input.threadId, { factIds: created.map((f) => f.id), accepted: input.auto });
  return created;
}

/**
 * Writes a thread's summary (`summarize`): deterministic, at most
 * {@link SUMMARY_CHARS} chars: the task (the first user message), each plan step with its
 * agent and outcome (result or error), and the final answer (the last run's final_answer
 * events). Stored in Thread.summary with summarizedAt = `now` (the thread's updatedAt is
 * kept: a summary is not activity).
 * @param input.now clock, ms since the epoch (default now).
 * @returns the summary.
 * @throws AppError not_found ("thread_not_found"); conflict ("run_in_progress").
 */
export async function summarize(db: Db, input: { threadId: string; now?: number }): Promise<string> {
  const thread = await finishedThread(db, input.threadId);
  const [task, steps, answer] = await Promise.all([firstTask(db, input.threadId), stepOutcomes(db, input.threadId), finalAnswer(db, input.threadId)]);
  const lines = [`Task: ${clip(task ?? "(no task recorded)", 300)}`];
  if (steps.length > 0) {
    lines.push("Steps:");
    for (const s of steps) {
      const outcome = s.status === "completed" ? (s.result ?? "done") : `${s.status}${s.error ? `: ${s.error}` : ""}`;
      lines.push(`- ${clip(s.task, 100)} (${s.agentName}): ${clip(outcome, 160)}`);
    }
  }
  if (answer) lines.push(`Answer: ${clip(answer, 400)}`);
  const text = lines.join("\n");
  const summary = text.length <= SUMMARY_CHARS ? text : `${text.slice(0, SUMMARY_CHARS - 1)}…`;
  await db.thread.update({ where: { id: thread.id }, data: { summary, summarizedAt: new Date(input.now ?? Date.now()), updatedAt: thread.updatedAt } });
  return summary;
}
