import { can, type Role } from "../auth/roles";
import type { RunInput } from "../runs/run-input";
import { AppError } from "../errors";
import { canonicalArgs } from "../policy/canonical";
import type { HumanResponse, ResumeValue } from "./run-body";

/** What the thread waits on, by LangGraph interrupt id (read from its latest state). */
export interface WaitingInterrupts {
  approvals: { id: string; approvalId: string }[];
  question: { id: string } | null;
  outcomes: { id: string; toolCallId: string }[];
  /**
   * The caller's role in the thread's workspace. When given, a caller whose role cannot
   * answer the interrupt is refused (403 `role_forbidden`) before the answer's content is
   * looked at: a viewer is never told to send a token it can never have.
   */
  role?: Role;
}

const field = "command.resume";

/** One resume entry: the interrupt it names (when keyed) and the answer. */
type Entry = { interruptId: string | null; answer: HumanResponse | string };

function entryOf(resume: ResumeValue): Entry {
  if (typeof resume === "string") return { interruptId: null, answer: resume };
  if (Array.isArray(resume)) return { interruptId: null, answer: resume[0] as HumanResponse };
  if ("type" in resume && typeof resume.type === "string") return { interruptId: null, answer: resume as HumanResponse };
  const keys = Object.entries(resume as Record<string, HumanResponse | HumanResponse[] | string>);
  if (keys.length !== 1) throw new AppError("unprocessable", "one_interrupt_per_run", `${field}: answer one interrupt per run (a map with one interrupt id); the others stay waiting.`);
  const [interruptId, value] = keys[0] as [string, HumanResponse | HumanResponse[] | string];
  return { interruptId, answer: Array.isArray(value) ? (value[0] as HumanResponse) : value };
}

function echoedApprovalId(answer: HumanResponse | string): string | undefined {
  return typeof answer === "object" && answer.args && typeof answer.args === "object" ? answer.args.approval?.id : undefined;
}

type Target = { kind: "approval"; approvalId: string } | { kind: "question" } | { kind: "outcome"; toolCallId: string };

/** Which interrupt an entry answers: the keyed id, the approval its echo names, else the only one waiting. */
function targetOf(entry: Entry, waiting: WaitingInterrupts): Target {
  const all: { id: string; target: Target }[] = [
    ...waiting.approvals.map((a) => ({ id: a.id, target: { kind: "approval", approvalId: a.approvalId } as Target })),
    ...(waiting.question ? [{ id: waiting.question.id, target: { kind: "question" } as Target }] : []),
    ...waiting.outcomes.map((o) => ({ id: o.id, target: { kind: "outcome", toolCallId: o.toolCallId } as Target })),
  ];
  if (all.length === 0) throw new AppError("conflict", "nothing_to_resume", `${field}: this thread is not waiting on an interrupt; start a run with input instead.`);
  if (entry.interruptId !== null) {
    const hit = all.find((w) => w.id === entry.interruptId);
    if (!hit) throw new AppError("conflict", "no_such_interrupt", `${field}: the thread is not waiting on interrupt ${entry.interruptId}; read the thread's state for the interrupts it waits on.`);
    return hit.target;
  }
  const echoed = echoedApprovalId(entry.answer);
  if (echoed !== undefined) {
    const hit = waiting.approvals.find((a) => a.approvalId === echoed);
    if (!hit) throw new AppError("conflict", "no_pending_approval", `${field}.args.approval.id: the thread is not waiting on approval ${echoed}.`);
    return { kind: "approval", approvalId: echoed };
  }
  if (all.length > 1) {
    throw new AppError(
      "conflict",
      "ambiguous_resume",
      `${field}: the thread waits on ${all.length} interrupts; key the resume by interrupt id ({ "<interrupt id>": response }) or echo the action_request you were shown.`,
    );
  }
  return (all[0] as { target: Target }).target;
}

function approvalInput(approvalId: string, answer: HumanResponse | string): RunInput {
  if (typeof answer === "string") return { kind: "decision", approvalId, decision: "respond", comment: answer };
  const echo = answer.args && typeof answer.args === "object" ? answer.args : null;
  const tokenOf = () => {
    const token = echo?.approval?.token;
    if (!token) {
      throw new AppError(
        "unprocessable",
        "token_required",
        `${field}.args: to ${answer.type} an approval, send as args the action_request you were shown, with its approval.token (docs/langgraph-api.md#deciding-approvals).`,
      );
    }
    return token;
  };
  switch (answer.type) {
    case "accept": {
      const token = tokenOf();
      // The approver approves what they saw: the echoed arguments must hash to the challenge's.
      const shown = canonicalArgs((echo as { args: unknown }).args).hash;
      return { kind: "decision", approvalId, decision: "approve", token, argsHash: shown };
    }
    case "edit": {
      if (!echo?.approval?.token) {
        // Agent Inbox's Edit sends `{ action, args }` without our `approval`: without the token
        // nothing may run, so the edited call is put up for an approval of its own (revise).
        const args = echo?.args;
        if (!args || typeof args !== "object" || Array.isArray(args)) {
          throw new AppError("unprocessable", "args_required", `${field}.args.args: an edit needs the edited arguments (a JSON object).`);
        }
        return { kind: "decision", approvalId, decision: "revise", args: args as Record<string, unknown> };
      }
      const token = tokenOf();
      const shown = echo?.approval?.args_hash;
      return { kind: "decision", approvalId, decision: "edit", token, args: (echo as { args: Record<string, unknown> }).args, ...(shown ? { argsHash: shown } : {}) };
    }
    case "response": {
      const text = typeof answer.args === "string" ? answer.args.trim() : "";
      if (!text) throw new AppError("unprocessable", "comment_required", `${field}.args: a response needs the text the agent should get instead of running the tool.`);
      return { kind: "decision", approvalId, decision: "respond", comment: text };
    }
    case "ignore":
      return { kind: "decision", approvalId, decision: "ignore" };
  }
}

/**
 * Refuses a caller whose role cannot answer `target` (docs/langgraph-api.md#deciding-approvals):
 * approvals and unknown outcomes are decided by owners and approvers, a question is answered
 * by a role that runs (the run service then checks it is the thread's own user).
 * @throws AppError forbidden ("role_forbidden").
 */
function requireRole(role: Role, target: Target): void {
  const what = target.kind === "question" ? "run" : "decide";
  if (can(role, what)) return;
  const verb = target.kind === "question" ? "answer the run's question" : target.kind === "approval" ? "decide approvals" : "choose for a call whose outcome is unknown";
  throw new AppError("forbidden", "role_forbidden", `Your role in this workspace is ${role}; it cannot ${verb}. Ask an owner for another role.`);
}

function questionInput(answer: HumanResponse | string): RunInput {
  const text = typeof answer === "string" ? answer : answer.type === "response" && typeof answer.args === "string" ? answer.args.trim() : "";
  if (!text) throw new AppError("unprocessable", "answer_required", `${field}: the run asked a question; answer it with a string or { type: "response", args: "<answer>" }.`);
  return { kind: "message", text };
}

function outcomeInput(toolCallId: string, answer: HumanResponse | string): RunInput {
  if (typeof answer === "object" && answer.type === "accept") return { kind: "outcome", toolCallId, choice: "retry" };
  if (typeof answer === "object" && answer.type === "ignore") return { kind: "outcome", toolCallId, choice: "skip" };
  throw new AppError("unprocessable", "outcome_choice_required", `${field}: the outcome of ${toolCallId} is unknown; accept runs it again, ignore reports it as not done.`);
}

/**
 * Turns a `Command({ resume })` of the LangGraph API into the run input the run view would
 * send (docs/langgraph-api.md#deciding-approvals), so an API decision takes the same path as a click
 * on an approval card: role, thread, expiry, arguments hash, HMAC token and one-time use are
 * all checked when the run is accepted (lib/runs/run-decision.ts). Approvals: accept needs
 * the echoed `action_request` with its `approval.token`, and its echoed arguments must hash
 * to the challenge's; an edit with the token runs the edited call; an edit without it (Agent
 * Inbox's Edit) runs nothing and puts the edited call up for its own approval (`revise`);
 * response carries the feedback; ignore dismisses the call and cancels the run. A question takes a string answer; an unknown outcome takes accept (run it
 * again) or ignore (skip it).
 * The caller's role (`waiting.role`) is checked as soon as the interrupt is known, before the
 * answer: a viewer gets 403 whatever it sent.
 * @throws AppError conflict (nothing waiting, unknown interrupt, ambiguous resume),
 *   forbidden ("role_forbidden": the role cannot answer it), unprocessable (a missing
 *   token, answer or choice), each naming the field.
 */
export function resumeInput(resume: ResumeValue, waiting: WaitingInterrupts): RunInput {
  // A role that can neither decide nor run (a viewer) can answer nothing: 403 before anything else.
  if (waiting.role && !can(waiting.role, "decide") && !can(waiting.role, "run")) requireRole(waiting.role, { kind: "approval", approvalId: "" });
  const entry = entryOf(resume);
  const target = targetOf(entry, waiting);
  if (waiting.role) requireRole(waiting.role, target);
  switch (target.kind) {
    case "approval":
      return approvalInput(target.approvalId, entry.answer);
    case "question":
      return questionInput(entry.answer);
    case "outcome":
      return outcomeInput(target.toolCallId, entry.answer);
  }
}
