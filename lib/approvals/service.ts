import { randomBytes } from "node:crypto";
import type { Approval } from "../../generated/prisma/client";
import type { Db } from "../db/client";
import { can, Role } from "../auth/roles";
import { membershipWhere, scopedRole } from "../auth/membership";
import { accessSqlOf } from "../db/checkpointer-stores";
import { AppError } from "../errors";
import { publishApproval } from "../events/approval-bus";
import { canonicalArgs, sha256Hex } from "../policy/canonical";
import type { ApprovalDecisionKind } from "./inbox-item";
import { type ChallengeFields, signChallenge, verifyChallenge } from "./signature";

/**
 * Approval challenges (SPEC.md 2, 4; issue 4): created by the RiskGate, decided from an
 * approval card, the inbox or a chat command, consumed exactly once by the
 * ApprovalHandler. Every state change is one conditional `updateMany` on the current
 * status, so concurrent decisions have exactly one winner; the others get 409.
 *
 * Decisions follow LangGraph's HumanResponse: approve (accept), edit (run with the
 * approver's arguments), respond (feedback instead of running), reject, ignore (the run
 * is cancelled). Statuses: pending -> approved -> consumed (approve, edit; a chat approval
 * goes pending -> consumed), pending -> rejected (respond, reject, ignore; `decision` says
 * which), pending -> expired.
 */

/** Options shared by the service functions. */
export interface ApprovalOptions {
  db: Db;
  /** HMAC key (>= 32 bytes). */
  secret: string;
  /** Clock, ms since the epoch. */
  now?: () => number;
  /**
   * The decider's role in the thread's workspace, when the caller resolved it for this same
   * user and thread in this request (lib/runs/run-checks.ts): the challenge is then read
   * alone, not joined again with the membership. The thread must still be the challenge's.
   */
  deciderRole?: Role;
}

/** Who decides which challenge of which thread. */
export interface Decider {
  approvalId: string;
  threadId: string;
  /** The deciding user: an owner or approver of the thread's workspace. */
  userId: string;
}

/** A decision that lets the tool run: the card's token and the hash of the args in the run's state. */
export interface DecisionInput extends Decider {
  token: string;
  /** SHA-256 recomputed from the arguments in the thread's checkpointed state. */
  argsHash: string;
}

/** Agent, step and policy context stored with a challenge for the inbox (issue 4). */
export interface ChallengeContext {
  agentId?: string;
  agentName?: string;
  stepId?: string;
  stepTask?: string;
  /** low | medium | high | critical */
  risk?: string;
  /** The matched rule as text. */
  rule?: string;
}

/** The columns of a stored challenge that its signature covers. */
export type ChallengeRow = Pick<Approval, "id" | "threadId" | "userId" | "toolName" | "argsHash" | "createdAt" | "expiresAt">;

/** The signed fields of a stored challenge. */
const fields = (a: ChallengeRow): ChallengeFields => ({
  id: a.id,
  threadId: a.threadId,
  userId: a.userId,
  toolName: a.toolName,
  argsHash: a.argsHash,
  createdAt: a.createdAt.getTime(),
  expiresAt: a.expiresAt.getTime(),
});

const clock = (opts: Pick<ApprovalOptions, "now">) => opts.now?.() ?? Date.now();

function publish(type: "approval.created" | "approval.decided" | "approval.expired" | "approval.consumed", a: { id: string; threadId: string }, status: string, at: number) {
  publishApproval({ type, approvalId: a.id, threadId: a.threadId, status, at });
}

/**
 * Stores a signed challenge: id (18 random bytes, base64url), thread, requesting user,
 * tool, RFC 8785 canonical args, their SHA-256, created and expiry (`ttlMs`, SPEC.md 4:
 * 15 min) and the
 * agent/step/policy context the inbox shows. A pending, unexpired challenge of the same
 * call (thread, user, tool call id, args hash) is answered instead of a second one.
 * @throws AppError conflict when `argsHash` is not the SHA-256 of `canonicalArgs`.
 */
export async function createChallenge(
  opts: ApprovalOptions & { ttlMs: number },
  input: { threadId: string; userId: string; toolName: string; toolCallId: string; canonicalArgs: string; argsHash: string } & ChallengeContext,
): Promise<{ id: string; token: string; expiresAt: string }> {
  if (sha256Hex(input.canonicalArgs) !== input.argsHash) throw new AppError("conflict", "integrity_error", "The arguments do not match their hash.");
  const now = clock(opts);
  // The RiskGate runs again when its run resumes from the checkpoint before it: the open
  // challenge of that same call is the answer, not a second one (docs/durability.md).
  const open = await opts.db.approval.findFirst({
    where: { threadId: input.threadId, toolCallId: input.toolCallId, argsHash: input.argsHash, userId: input.userId, status: "pending", expiresAt: { gt: new Date(now) } },
  });
  if (open) return { id: open.id, token: challengeToken(opts.secret, open), expiresAt: open.expiresAt.toISOString() };
  const id = `apv_${randomBytes(18).toString("base64url")}`;
  // Millisecond precision survives every database the schema targets.
  const createdAt = new Date(now);
  const expiresAt = new Date(now + opts.ttlMs);
  const signature = signChallenge(opts.secret, {
    id,
    threadId: input.threadId,
    userId: input.userId,
    toolName: input.toolName,
    argsHash: input.argsHash,
    createdAt: createdAt.getTime(),
    expiresAt: expiresAt.getTime(),
  });
  // The token is never stored: it is recomputed from the signed fields for those who may
  // decide (see challengeToken), so a copy of the database holds no live token.
  await opts.db.approval.create({ data: { id, ...input, status: "pending", createdAt, expiresAt } });
  publish("approval.created", { id, threadId: input.threadId }, "pending", now);
  return { id, token: signature, expiresAt: expiresAt.toISOString() };
}

/**
 * The one-time token of a stored challenge: the HMAC-SHA256 of its signed fields under the
 * server's approval key (docs/security.md "Secrets at rest": tokens are recomputed, never
 * stored). Only for people who may decide the challenge.
 * @throws Error when the secret is shorter than 32 bytes.
 */
export function challengeToken(secret: string, a: ChallengeRow): string {
  return signChallenge(secret, fields(a));
}

/**
 * Loads a challenge for a decider: it must exist in this thread, and the decider must be
 * an owner or approver of the thread's workspace (issue 4 roles; the "user" factor).
 * @throws AppError not_found (no such challenge in this thread, or the decider is not a
 *   member of its workspace), forbidden ("role_forbidden": a viewer).
 */
async function loadForDecider(opts: ApprovalOptions, input: Decider): Promise<Approval> {
  if (opts.deciderRole !== undefined) {
    const a = await opts.db.approval.findUnique({ where: { id: input.approvalId } });
    if (!a || a.threadId !== input.threadId) throw new AppError("not_found", "approval_not_found", `No approval ${input.approvalId} in this thread.`);
    if (!can(opts.deciderRole, "decide")) throw new AppError("forbidden", "role_forbidden", `Your role in this workspace is ${opts.deciderRole}; only owners and approvers decide approvals.`);
    return a;
  }
  // One statement on the driver for a root client (lib/db/access-sql.ts): the challenge and the
  // decider's membership of its thread's workspace, outside the request's workspace scope none.
  const sql = accessSqlOf(opts.db);
  if (sql) {
    const found = await sql.approvalWithRole(input.approvalId, input.userId);
    const inThread = found?.approval.threadId === input.threadId ? found : null;
    return deciderMay(inThread?.approval ?? null, inThread ? scopedRole(inThread.role, inThread.workspaceId) : null, input);
  }
  // One query: the challenge and the decider's membership of its thread's workspace.
  const a = await opts.db.approval.findUnique({
    where: { id: input.approvalId },
    include: { thread: { select: { flow: { select: { workspace: { select: { members: { where: membershipWhere(input.userId), select: { role: true } } } } } } } } },
  });
  const member = Role.safeParse(a?.threadId === input.threadId ? a.thread.flow.workspace.members[0]?.role : undefined);
  if (!a) return deciderMay(null, null, input);
  const { thread: _thread, ...row } = a;
  return deciderMay(row, member.success ? member.data : null, input);
}

/**
 * The challenge when the decider may decide it.
 * @throws AppError not_found (no challenge, or no role: not a member), forbidden (a viewer).
 */
function deciderMay(a: Approval | null, role: Role | null, input: Decider): Approval {
  if (!a || !role) throw new AppError("not_found", "approval_not_found", `No approval ${input.approvalId} in this thread.`);
  if (!can(role, "decide")) throw new AppError("forbidden", "role_forbidden", `Your role in this workspace is ${role}; only owners and approvers decide approvals.`);
  return a;
}

/**
 * Refuses a challenge that is no longer open, marking a pending one past its expiry as
 * expired (exactly once; the run is told by the expiry sweeper).
 * @throws AppError gone (expired), conflict (already decided, or status not in `allowed`).
 */
async function requireOpen(opts: ApprovalOptions, a: Approval, allowed: readonly string[]): Promise<void> {
  if (a.status === "expired") throw new AppError("gone", "approval_expired", `This approval expired at ${a.expiresAt.toISOString()}; the run was told.`);
  if (!allowed.includes(a.status)) throw new AppError("conflict", "approval_already_decided", `This approval is already ${a.status}; a token works once.`);
  if (a.status === "pending" && a.expiresAt.getTime() <= clock(opts)) {
    await expireChallenge(opts, a.id);
    throw new AppError("gone", "approval_expired", `This approval expired at ${a.expiresAt.toISOString()}; the run was told.`);
  }
}

/**
 * Checks the seven factors of SPEC.md 2 against a stored challenge: id (exists in the
 * thread), user (the decider is an owner or approver of the thread's workspace), expiry,
 * args hash (the stored canonical args still hash to the stored hash, and that hash equals
 * the one recomputed from the run's state), HMAC signature over the stored fields (so a
 * row edited in the database fails), and one-time use (`allowed` statuses).
 * @throws AppError not_found, forbidden (viewer, bad token), gone (expired), conflict
 *   (already decided, arguments changed).
 */
export async function checkFactors(opts: ApprovalOptions, input: DecisionInput, allowed: readonly string[]): Promise<Approval> {
  const a = await loadForDecider(opts, input);
  await requireOpen(opts, a, allowed);
  if (sha256Hex(a.canonicalArgs) !== a.argsHash || a.argsHash !== input.argsHash) {
    throw new AppError("conflict", "args_hash_mismatch", "The arguments changed after the approval was requested; it no longer applies.");
  }
  if (!verifyChallenge(opts.secret, fields(a), input.token)) throw new AppError("forbidden", "bad_token", "The approval token is not valid for this challenge.");
  return a;
}

/** Moves a pending challenge on in one conditional update; the loser of a race gets 409. */
async function settle(opts: ApprovalOptions, a: Approval, data: Record<string, unknown>, status: "approved" | "rejected", decision: ApprovalDecisionKind, userId: string): Promise<void> {
  const at = clock(opts);
  const won = await opts.db.approval.updateMany({
    where: { id: a.id, status: "pending" },
    data: { ...data, status, decision, decidedAt: new Date(at), decidedById: userId },
  });
  if (won.count !== 1) throw new AppError("conflict", "approval_already_decided", "Another decision on this approval came first.");
  publish("approval.decided", a, status, at);
}

/**
 * Approves (LangGraph "accept"): the seven factors, then pending -> approved in one
 * conditional update. `shownHash` is the hash the approver was shown; when given it must
 * equal the challenge's (the approver approves what they saw).
 * @throws AppError as {@link checkFactors}; conflict when `shownHash` differs or another
 *   decision won the race.
 */
export async function approveChallenge(opts: ApprovalOptions, input: DecisionInput, extra: { comment?: string; shownHash?: string } = {}): Promise<Approval> {
  const a = await checkFactors(opts, input, ["pending"]);
  if (extra.shownHash !== undefined && extra.shownHash !== a.argsHash) {
    throw new AppError("conflict", "args_hash_mismatch", "The arguments you were shown are not those waiting for approval; reload and decide again.");
  }
  await settle(opts, a, { comment: extra.comment ?? null }, "approved", "approve", input.userId);
  return { ...a, status: "approved" };
}

/**
 * Approves with changed arguments (LangGraph "edit"): the seven factors on the original
 * challenge, then the new arguments are canonicalised (RFC 8785) and hashed, and the
 * flow's policy is evaluated again on them; a BLOCKED result refuses the edit and the
 * challenge stays pending. Otherwise pending -> approved with decision "edit" and the
 * edited canonical args and hash, which the ApprovalHandler must match before the tool runs.
 * @param decide the policy decision for the tool on canonical arguments.
 * @throws AppError as {@link approveChallenge}; unprocessable ("invalid_edit") when the
 *   args are not JSON; forbidden ("edit_blocked_by_policy") when a policy blocks them.
 */
export async function editChallenge(
  opts: ApprovalOptions,
  input: DecisionInput,
  edit: { args: unknown; decide: (toolName: string, canonical: string) => { decision: string; explanation: string }; comment?: string; shownHash?: string },
): Promise<{ approval: Approval; canonical: string; hash: string }> {
  const a = await checkFactors(opts, input, ["pending"]);
  if (edit.shownHash !== undefined && edit.shownHash !== a.argsHash) {
    throw new AppError("conflict", "args_hash_mismatch", "The arguments you edited are not those waiting for approval; reload and decide again.");
  }
  const next = editedCall(a, edit);
  await settle(opts, a, { comment: edit.comment ?? null, editedArgs: next.canonical, editedArgsHash: next.hash }, "approved", "edit", input.userId);
  return { approval: { ...a, status: "approved" }, ...next };
}

/**
 * Closes a challenge without running the tool: respond (feedback to the agent), reject
 * (with a reason) or ignore (the run is cancelled). Needs no token: closing can only stop
 * a tool from running. pending -> rejected in one conditional update.
 * @throws AppError not_found / forbidden as {@link checkFactors}; gone (expired);
 *   conflict (already decided, or another decision won the race).
 */
export async function closeChallenge(opts: ApprovalOptions, input: Decider, decision: "respond" | "reject" | "ignore", comment?: string): Promise<void> {
  const a = await loadForDecider(opts, input);
  await requireOpen(opts, a, ["pending"]);
  await settle(opts, a, { comment: comment ?? null }, "rejected", decision, input.userId);
}

/**
 * Replaces a pending call by an edited one without running anything (decision `revise`):
 * an edit sent without the challenge's token, as Agent Inbox sends it
 * (docs/langgraph-api.md#deciding-approvals). It needs no token for the same reason closing does:
 * the edited call does not run here; the ApprovalHandler sends it back to the RiskGate,
 * where it waits for an approval of its own, with its own token. The edited arguments are
 * canonicalised (RFC 8785) and judged by the flow's policy first, as an edit's are.
 * pending -> rejected (decision `revise`, with the edited arguments and their hash) in one
 * conditional update.
 * @throws AppError unprocessable ("invalid_edit") when the args are not a JSON object;
 *   forbidden ("edit_blocked_by_policy") when a policy blocks them; otherwise as {@link closeChallenge}.
 */
export async function reviseChallenge(
  opts: ApprovalOptions,
  input: Decider,
  edit: { args: unknown; decide: (toolName: string, canonical: string) => { decision: string; explanation: string } },
): Promise<{ canonical: string; hash: string }> {
  const a = await loadForDecider(opts, input);
  await requireOpen(opts, a, ["pending"]);
  const next = editedCall(a, edit);
  const comment = `edited from sha256 ${a.argsHash} to ${next.hash}; the edited call needs its own approval`;
  await settle(opts, a, { comment, editedArgs: next.canonical, editedArgsHash: next.hash }, "rejected", "revise", input.userId);
  return next;
}

/** An edit's canonical arguments, refused when not a JSON object or BLOCKED by policy. */
function editedCall(a: Approval, edit: { args: unknown; decide: (toolName: string, canonical: string) => { decision: string; explanation: string } }): { canonical: string; hash: string } {
  let next: { canonical: string; hash: string };
  try {
    if (typeof edit.args !== "object" || edit.args === null || Array.isArray(edit.args)) throw new Error("not an object");
    next = canonicalArgs(edit.args);
  } catch {
    throw new AppError("unprocessable", "invalid_edit", "input.args: the edited arguments must be a JSON object.");
  }
  const policy = edit.decide(a.toolName, next.canonical);
  if (policy.decision === "BLOCKED") {
    throw new AppError("forbidden", "edit_blocked_by_policy", `The edited arguments are BLOCKED by policy (${policy.explanation}); the tool will not run with them. Edit them again or reject.`);
  }
  return next;
}

/**
 * Consumes a challenge for the ApprovalHandler, right before the tool runs: the seven
 * factors, and for an edit the hash of the arguments about to run must equal the edited
 * hash stored by {@link editChallenge} (and that hash must still be the SHA-256 of the
 * stored edited text). Then approved (card) or pending (chat command) -> consumed in one
 * conditional update.
 *
 * Exactly once across a crash (docs/durability.md "Approvals"): the ApprovalHandler runs
 * again when its run resumes from the checkpoint before it. A challenge already consumed is
 * accepted again, without a second consumption, only for the same use: the same token
 * (HMAC over the stored fields), thread, deciding user, args hash (and edited hash), and the
 * same tool call the challenge was created for. The call itself runs at most once per tool
 * call id (lib/engine/tool-executions.ts), so accepting it again cannot run the action twice;
 * every other reuse is refused as before. Expiry bounds the decision, which was in time.
 * @param editedArgsHash SHA-256 of the edited arguments about to run; undefined for a plain approval.
 * @param toolCallId the call about to run; without it a consumed challenge is never accepted again.
 * @returns replayed: true when the challenge had been consumed by this same call before.
 * @throws AppError as {@link checkFactors}; conflict when the edit does not match, it was
 *   consumed concurrently, or it was consumed and this is not the same call.
 */
export async function consumeChallenge(opts: ApprovalOptions, input: DecisionInput & { editedArgsHash?: string; toolCallId?: string }): Promise<{ replayed: boolean }> {
  const a = await checkFactors(opts, input, ["approved", "pending", "consumed"]);
  const isEdit = a.decision === "edit";
  const editOk = isEdit
    ? a.editedArgs !== null && a.editedArgsHash !== null && sha256Hex(a.editedArgs) === a.editedArgsHash && input.editedArgsHash === a.editedArgsHash
    : input.editedArgsHash === undefined;
  if (!editOk) throw new AppError("conflict", "args_hash_mismatch", "The arguments about to run are not the ones the approver approved.");
  if (a.status === "consumed") {
    const sameUse = a.consumedAt !== null && input.toolCallId !== undefined && input.toolCallId === a.toolCallId && a.decidedById === input.userId;
    if (!sameUse) throw new AppError("conflict", "approval_already_decided", "This approval was already used.");
    return { replayed: true };
  }
  const at = clock(opts);
  const won = await opts.db.approval.updateMany({
    where: { id: a.id, status: a.status, consumedAt: null },
    data: {
      status: "consumed",
      consumedAt: new Date(at),
      decidedAt: a.decidedAt ?? new Date(at),
      decidedById: a.decidedById ?? input.userId,
      decision: a.decision ?? "approve",
    },
  });
  if (won.count !== 1) throw new AppError("conflict", "approval_already_decided", "This approval was already used.");
  publish("approval.consumed", a, "consumed", at);
  return { replayed: false };
}

/**
 * Marks a pending challenge past its expiry as expired (pending -> expired, one
 * conditional update; decision "expired").
 * @returns true when this call expired it (so exactly one caller tells the run).
 */
export async function expireChallenge(opts: Pick<ApprovalOptions, "db" | "now">, approvalId: string): Promise<boolean> {
  const at = clock(opts);
  const won = await opts.db.approval.updateMany({
    where: { id: approvalId, status: "pending", expiresAt: { lte: new Date(at) } },
    data: { status: "expired", decision: "expired" },
  });
  if (won.count !== 1) return false;
  const a = await opts.db.approval.findUnique({ where: { id: approvalId }, select: { id: true, threadId: true } });
  if (a) publish("approval.expired", a, "expired", at);
  return true;
}
