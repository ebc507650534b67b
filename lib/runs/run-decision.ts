import "server-only";
import type { ApprovalDecisionKind, HumanDecision } from "../approvals/inbox-item";
import { approveChallenge, closeChallenge, editChallenge, reviseChallenge } from "../approvals/service";
import type { Db } from "../db/client";
import { AppError, isAppError } from "../errors";
import { canonicalArgs } from "../policy/canonical";
import type { EngineDeps } from "../engine/deps";
import type { ApprovalInterrupt, ApprovalResume } from "../engine/nodes/await-approval";

/**
 * Decisions on pending approvals (issue 4): which calls a thread waits on, and how an
 * approver's decision becomes the resume map of `Command({ resume })`. Used by the run
 * service (lib/runs/run-thread.ts) before a run resumes.
 */

/**
 * The decisions an approver can send (docs/architecture.md#approvals; LangGraph
 * HumanResponse), plus `revise`: an edit without the token, from the LangGraph API only
 * (lib/langgraph-api/resume.ts), which runs nothing and puts the edited call up for approval.
 */
export type DecisionInput = {
  kind: "decision";
  approvalId: string;
  decision: HumanDecision | "revise";
  /** The card's one-time token: required to approve or edit. */
  token?: string;
  /** The args hash the approver was shown; must equal the challenge's. */
  argsHash?: string;
  /** edit, revise: the new arguments. */
  args?: Record<string, unknown>;
  /** respond: the feedback (required); reject: the reason; otherwise a note. */
  comment?: string;
};

/** The approval interrupts the thread waits on: interrupt id and its HumanInterrupt payload. */
export function waitingCalls(snapshot: { tasks: { interrupts: { id?: string; value?: unknown }[] }[] }): { id: string; request: ApprovalInterrupt }[] {
  return snapshot.tasks
    .flatMap((t) => t.interrupts)
    .flatMap((i) => {
      const request = (i.value as ApprovalInterrupt[] | undefined)?.[0];
      return i.id && request?.approval_id ? [{ id: i.id, request }] : [];
    });
}

/**
 * Applies a decision to the challenge it names (one conditional update; see
 * lib/approvals/service.ts) and builds the resume map for `Command({ resume })`: the
 * interrupt of that call gets the HumanResponse. Ignore cancels the run: every other
 * call the thread waits on is dismissed too, so the run ends as a whole. Revise closes the
 * challenge without its token and hands the edited arguments to the ApprovalHandler, which
 * sends the edited call back to the RiskGate for an approval of its own.
 * @throws AppError conflict ("no_pending_approval") when the thread does not wait on it;
 *   unprocessable when a required field is missing; anything the service throws.
 */
export async function applyDecision(
  approvalOpts: { db: Db; secret: string; now: () => number },
  threadId: string,
  userId: string,
  input: DecisionInput | { kind: "expired"; approvalId: string },
  waiting: { id: string; request: ApprovalInterrupt }[],
  deps: Pick<EngineDeps, "flow" | "permission">,
): Promise<{ resume: Record<string, ApprovalResume>; label: string }> {
  const target = waiting.find((w) => w.request.approval_id === input.approvalId);
  if (!target) {
    // An expired challenge the run was already told about is gone, not merely decided.
    const row = await approvalOpts.db.approval.findFirst({ where: { id: input.approvalId, threadId }, select: { status: true, expiresAt: true } });
    if (row?.status === "expired") throw new AppError("gone", "approval_expired", `This approval expired at ${row.expiresAt.toISOString()}; the run was told.`);
    throw new AppError("conflict", "no_pending_approval", `Approval ${input.approvalId} is not a call this thread is waiting on.`);
  }
  const tool = target.request.action_request.action;
  const resumeOf = (decision: ApprovalDecisionKind, response: ApprovalResume["response"], token: string | null = null): ApprovalResume => ({
    response,
    decision,
    approval_id: input.approvalId,
    token,
    decided_by: input.kind === "expired" ? "system" : userId,
  });
  if (input.kind === "expired") {
    const row = await approvalOpts.db.approval.findUnique({ where: { id: input.approvalId }, select: { status: true } });
    if (row?.status !== "expired") throw new AppError("conflict", "approval_not_expired", `Approval ${input.approvalId} has not expired.`);
    return { resume: { [target.id]: resumeOf("expired", { type: "response", args: "expired" }) }, label: `The approval for ${tool} expired` };
  }
  const who = { approvalId: input.approvalId, threadId, userId };
  const argsHash = canonicalArgs(target.request.action_request.args).hash;
  const needToken = () => {
    if (!input.token) throw new AppError("unprocessable", "token_required", `input.token: to ${input.decision} you need the token shown on the approval card.`);
    return input.token;
  };
  const shown = input.argsHash !== undefined ? { shownHash: input.argsHash } : {};
  const comment = input.comment?.trim() || undefined;
  const note = comment ? { comment } : {};
  switch (input.decision) {
    case "approve": {
      const token = needToken();
      await approveChallenge(approvalOpts, { ...who, token, argsHash }, { ...note, ...shown });
      return { resume: { [target.id]: resumeOf("approve", { type: "accept", args: null }, token) }, label: `Approved ${tool}` };
    }
    case "edit": {
      const token = needToken();
      if (!input.args) throw new AppError("unprocessable", "args_required", "input.args: an edit needs the new arguments (a JSON object).");
      const edited = await editChallenge(approvalOpts, { ...who, token, argsHash }, { args: input.args, decide: (t, c) => deps.flow.decide(t, c, deps.permission), ...note, ...shown });
      const args = JSON.parse(edited.canonical) as Record<string, unknown>;
      return {
        resume: { [target.id]: resumeOf("edit", { type: "edit", args: { action: tool, args } }, token) },
        label: `Approved ${tool} with edited arguments (sha256 ${edited.hash.slice(0, 12)}…)`,
      };
    }
    case "revise": {
      if (!input.args) throw new AppError("unprocessable", "args_required", "input.args: an edit needs the new arguments (a JSON object).");
      const edited = await reviseChallenge(approvalOpts, who, { args: input.args, decide: (t, c) => deps.flow.decide(t, c, deps.permission) });
      const args = JSON.parse(edited.canonical) as Record<string, unknown>;
      return {
        resume: { [target.id]: resumeOf("revise", { type: "edit", args: { action: tool, args } }) },
        label: `Edited ${tool} (sha256 ${edited.hash.slice(0, 12)}…); the edited call waits for its own approval`,
      };
    }
    case "respond": {
      if (!comment) throw new AppError("unprocessable", "comment_required", "input.comment: write the feedback the agent should get instead of running the tool.");
      await closeChallenge(approvalOpts, who, "respond", comment);
      return { resume: { [target.id]: resumeOf("respond", { type: "response", args: comment }) }, label: `Responded to ${tool}: ${comment}` };
    }
    case "reject": {
      await closeChallenge(approvalOpts, who, "reject", comment);
      const reason = comment ?? "rejected from the approval card";
      return { resume: { [target.id]: resumeOf("reject", { type: "response", args: reason }) }, label: `Rejected ${tool}${comment ? `: ${comment}` : ""}` };
    }
    case "ignore": {
      await closeChallenge(approvalOpts, who, "ignore", comment);
      const resume: Record<string, ApprovalResume> = { [target.id]: resumeOf("ignore", { type: "ignore", args: null }) };
      for (const other of waiting.filter((w) => w !== target)) {
        try {
          await closeChallenge(approvalOpts, { ...who, approvalId: other.request.approval_id }, "ignore", "the run was cancelled");
        } catch (err) {
          if (!isAppError(err) || err.code === "forbidden" || err.code === "not_found") throw err;
        }
        resume[other.id] = { ...resumeOf("ignore", { type: "ignore", args: null }), approval_id: other.request.approval_id };
      }
      return { resume, label: `Dismissed ${tool}; the run is cancelled` };
    }
  }
}
