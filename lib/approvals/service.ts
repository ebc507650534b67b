import { randomBytes } from "node:crypto";
import type { Approval } from "../../generated/prisma/client";
import type { Db } from "../db/client";
import { AppError } from "../errors";
import { sha256Hex } from "../policy/canonical";
import { type ChallengeFields, signChallenge, verifyChallenge } from "./signature";

/**
 * Approval challenges (SPEC.md 2, 4): created by the RiskGate, decided from an approval
 * card or a chat command, consumed exactly once by the ApprovalHandler. Every state change
 * is one conditional `updateMany` on the current status, so concurrent decisions have
 * exactly one winner.
 */

/** Options shared by the service functions. */
export interface ApprovalOptions {
  db: Db;
  /** HMAC key (>= 32 bytes). */
  secret: string;
  /** Clock, ms since the epoch. */
  now?: () => number;
}

/** A decision's inputs: which challenge, the token shown on its card, and who decides where. */
export interface DecisionInput {
  approvalId: string;
  token: string;
  threadId: string;
  userId: string;
  /** SHA-256 recomputed from the arguments in the thread's checkpointed state. */
  argsHash: string;
}

const fields = (a: Approval): ChallengeFields => ({
  id: a.id,
  threadId: a.threadId,
  userId: a.userId,
  toolName: a.toolName,
  argsHash: a.argsHash,
  createdAt: a.createdAt.getTime(),
  expiresAt: a.expiresAt.getTime(),
});

/**
 * Stores a signed challenge: id (18 random bytes, base64url), thread, user, tool, RFC 8785
 * canonical args, their SHA-256, created and expiry (`ttlMs`, SPEC.md 4: 15 min), and the
 * HMAC-SHA256 signature, which is the one-time token an approver presents.
 * @throws AppError conflict when `argsHash` is not the SHA-256 of `canonicalArgs`.
 */
export async function createChallenge(
  opts: ApprovalOptions & { ttlMs: number },
  input: { threadId: string; userId: string; toolName: string; toolCallId: string; canonicalArgs: string; argsHash: string },
): Promise<{ id: string; token: string; expiresAt: string }> {
  if (sha256Hex(input.canonicalArgs) !== input.argsHash) throw new AppError("conflict", "integrity_error", "The arguments do not match their hash.");
  const now = opts.now?.() ?? Date.now();
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
  await opts.db.approval.create({ data: { id, ...input, signature, status: "pending", createdAt, expiresAt } });
  return { id, token: signature, expiresAt: expiresAt.toISOString() };
}

/**
 * Checks the seven factors of SPEC.md 2 against a stored challenge: id (exists), thread,
 * user, expiry, args hash (the stored canonical args still hash to the stored hash, and
 * that hash equals the one recomputed from the run's state), HMAC signature over the stored
 * fields (so a row edited in the database fails), and one-time use (`allowed` statuses).
 * An expired pending challenge is marked expired.
 * @throws AppError not_found (no such challenge in this thread), forbidden (another user,
 *   bad token), gone (expired), conflict (already decided, or arguments changed).
 */
export async function checkFactors(opts: ApprovalOptions, input: DecisionInput, allowed: readonly string[]): Promise<Approval> {
  const now = opts.now?.() ?? Date.now();
  const a = await opts.db.approval.findUnique({ where: { id: input.approvalId } });
  if (!a || a.threadId !== input.threadId) throw new AppError("not_found", "approval_not_found", `No approval ${input.approvalId} in this thread.`);
  if (a.userId !== input.userId) throw new AppError("forbidden", "approval_wrong_user", "Only the user who started this run may decide its approvals.");
  if (!allowed.includes(a.status)) throw new AppError("conflict", "approval_already_decided", `This approval is already ${a.status}; a token works once.`);
  if (a.expiresAt.getTime() <= now) {
    await opts.db.approval.updateMany({ where: { id: a.id, status: "pending" }, data: { status: "expired" } });
    throw new AppError("gone", "approval_expired", `This approval expired at ${a.expiresAt.toISOString()}; the run was told.`);
  }
  if (sha256Hex(a.canonicalArgs) !== a.argsHash || a.argsHash !== input.argsHash) {
    throw new AppError("conflict", "args_hash_mismatch", "The arguments changed after the approval was requested; it no longer applies.");
  }
  if (!verifyChallenge(opts.secret, fields(a), input.token)) throw new AppError("forbidden", "bad_token", "The approval token is not valid for this challenge.");
  return a;
}

/**
 * Approves from a card: the seven factors, then pending -> approved in one conditional
 * update. Of concurrent approvals exactly one wins; the others get 409.
 * @throws AppError as {@link checkFactors}; conflict when another decision won the race.
 */
export async function approveChallenge(opts: ApprovalOptions, input: DecisionInput, comment?: string): Promise<Approval> {
  const a = await checkFactors(opts, input, ["pending"]);
  const now = new Date(opts.now?.() ?? Date.now());
  const won = await opts.db.approval.updateMany({
    where: { id: a.id, status: "pending" },
    data: { status: "approved", decidedAt: now, decidedById: input.userId, comment: comment ?? null },
  });
  if (won.count !== 1) throw new AppError("conflict", "approval_already_decided", "Another decision on this approval came first.");
  return { ...a, status: "approved" };
}

/**
 * Consumes a challenge for the ApprovalHandler: the seven factors, then approved (card) or
 * pending (chat command) -> consumed in one conditional update.
 * @throws AppError as {@link checkFactors}; conflict when it was consumed concurrently.
 */
export async function consumeChallenge(opts: ApprovalOptions, input: DecisionInput): Promise<void> {
  const a = await checkFactors(opts, input, ["approved", "pending"]);
  const now = new Date(opts.now?.() ?? Date.now());
  const won = await opts.db.approval.updateMany({
    where: { id: a.id, status: a.status, consumedAt: null },
    data: { status: "consumed", consumedAt: now, decidedAt: a.decidedAt ?? now, decidedById: a.decidedById ?? input.userId },
  });
  if (won.count !== 1) throw new AppError("conflict", "approval_already_decided", "This approval was already used.");
}

/**
 * Rejects a pending challenge (pending -> rejected, one conditional update). Needs no token:
 * rejecting can only stop a tool from running. Re-rejecting an already rejected challenge
 * is a no-op.
 * @throws AppError not_found / forbidden as {@link checkFactors}; conflict when it was
 *   already approved or consumed.
 */
export async function rejectChallenge(opts: ApprovalOptions, input: { approvalId: string; threadId: string; userId: string }, comment?: string): Promise<void> {
  const a = await opts.db.approval.findUnique({ where: { id: input.approvalId } });
  if (!a || a.threadId !== input.threadId) throw new AppError("not_found", "approval_not_found", `No approval ${input.approvalId} in this thread.`);
  if (a.userId !== input.userId) throw new AppError("forbidden", "approval_wrong_user", "Only the user who started this run may decide its approvals.");
  if (a.status === "rejected") return;
  const won = await opts.db.approval.updateMany({
    where: { id: a.id, status: { in: ["pending", "expired"] } },
    data: { status: "rejected", decidedAt: new Date(opts.now?.() ?? Date.now()), decidedById: input.userId, comment: comment ?? null },
  });
  if (won.count !== 1) throw new AppError("conflict", "approval_already_decided", `This approval is already ${a.status}.`);
}
