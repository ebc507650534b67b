import "server-only";
import type { Db } from "../db/client";
import { prismaErrorCode } from "../db/prisma-error-code";
import { AppError } from "../errors";
import type { OutcomeUnknownInterrupt } from "../engine/nodes/tools";
import { CONFIRMED_MARK } from "../engine/outcome-card-status";
import { describeCall } from "../engine/outcomes";
import type { ToolResultState } from "../engine/state";
import type { OutcomeChoice, ToolCallOutcome } from "../engine/tool-executions";
import { prismaToolExecutions } from "../engine/tool-executions-prisma";

/**
 * The choice a person makes for a side-effecting call whose outcome is unknown after a crash
 * (docs/durability.md "Side effects"): which calls a thread waits on, and how a choice is
 * recorded and becomes the resume map of `Command({ resume })`. Used by the run service
 * before a run resumes; who may choose is checked there (the "decide" capability, as for
 * approvals).
 */

/** The run input that carries the choice (POST /api/threads/:id/stream). */
export type OutcomeInput = { kind: "outcome"; toolCallId: string; choice: OutcomeChoice };

/** What the run resumes with: the choice and who made it (the record is the truth). */
export interface OutcomeResume {
  choice: OutcomeChoice;
  decided_by: string;
}

/** The outcome_unknown interrupts the thread waits on: interrupt id and payload. */
export function waitingOutcomes(snapshot: { tasks: { interrupts: { id?: string; value?: unknown }[] }[] }): { id: string; request: OutcomeUnknownInterrupt }[] {
  return snapshot.tasks
    .flatMap((t) => t.interrupts)
    .flatMap((i) => {
      const v = i.value as Partial<OutcomeUnknownInterrupt> | undefined;
      return i.id && v?.kind === "outcome_unknown" && typeof v.toolCallId === "string" ? [{ id: i.id, request: v as OutcomeUnknownInterrupt }] : [];
    });
}

/**
 * The outcome a person confirms with "It happened: continue": a success whose result says so
 * (the call's own response was lost with the process), so the step goes on as done.
 * @param who the confirming person's name or email.
 */
export function confirmedOutcome(request: OutcomeUnknownInterrupt, who: string): ToolCallOutcome {
  const output = `${describeCall(request.tool, request.args)} took effect: ${who} ${CONFIRMED_MARK} (attempt ${request.attempt}, started ${request.startedAt}); its own result was not recorded.`;
  const result: ToolResultState = {
    tool_name: request.tool,
    call_id: request.toolCallId,
    output,
    status: "success",
    evicted: false,
    pointer: null,
    size_chars: output.length,
    rehydration_allowed: false,
    metadata: { code: "confirmed" },
  };
  return { status: "success", result, errorCode: null, durationMs: 0 };
}

/**
 * Records the choice on the call's execution record (started -> retry | skipped, or
 * completed with the confirmed outcome for `happened`; one conditional update, so of two
 * concurrent choices exactly one wins), audits it once, and
 * builds the resume map. The choice is durable before the run resumes: a run that dies
 * right after still finds it (the Tools node reads the record, not the resume value).
 * @param at the time, ms since the epoch.
 * @throws AppError conflict "no_pending_outcome" when the thread does not wait on that call;
 *   conflict "outcome_already_decided" when another choice came first.
 */
export async function applyOutcomeChoice(
  db: Db,
  threadId: string,
  userId: string,
  input: OutcomeInput,
  waiting: { id: string; request: OutcomeUnknownInterrupt }[],
  at: number,
): Promise<{ resume: Record<string, OutcomeResume>; label: string }> {
  const target = waiting.find((w) => w.request.toolCallId === input.toolCallId);
  if (!target) throw new AppError("conflict", "no_pending_outcome", `input.toolCallId: this thread is not waiting for a choice on call ${input.toolCallId}.`);
  const { request } = target;
  const key = { threadId, toolCallId: request.toolCallId };
  let confirmed: ToolCallOutcome | undefined;
  if (input.choice === "happened") {
    const who = await db.user.findUnique({ where: { id: userId }, select: { name: true, email: true } });
    confirmed = confirmedOutcome(request, who?.name?.trim() || who?.email || "someone");
  }
  const won = await prismaToolExecutions(db).decide(key, request.attempt, input.choice, userId, at, confirmed);
  if (!won) throw new AppError("conflict", "outcome_already_decided", "Someone already chose for this call; reload the run.");
  const call = describeCall(request.tool, request.args);
  const label = input.choice === "retry" ? `Run ${call} again` : input.choice === "skip" ? `Skip ${call}` : `It happened: continue after ${call}`;
  try {
    await db.auditEntry.create({
      data: {
        threadId,
        actorId: userId,
        action: `outcome_${input.choice}`,
        toolName: request.tool,
        argsHash: request.argsHash,
        detail: JSON.stringify({ at: new Date(at).toISOString(), detail: `${label} (attempt ${request.attempt} started ${request.startedAt}; its outcome was unknown)` }),
        key: `outcome_${input.choice}:${request.toolCallId}:${request.attempt}`,
      },
    });
  } catch (err) {
    // The choice is recorded; an audit row already written for it is not an error.
    if (prismaErrorCode(err) !== "P2002") throw err;
  }
  return { resume: { [target.id]: { choice: input.choice, decided_by: userId } }, label };
}
