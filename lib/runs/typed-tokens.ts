import "server-only";
import { redactTokensIn, TOKEN_LENGTH } from "../approvals/token-redaction";
import { challengeToken } from "../approvals/service";
import type { Db } from "../db/client";
import { parseApprovalCommand } from "../engine/approval-command";
import type { RunInput } from "./run-input";
import { REDACTED } from "../engine/safe-state";

/**
 * Live approval tokens typed into a run's input are redacted before the run is queued
 * (docs/security.md "Secrets at rest"), so that neither the job (`RunJob.input`), nor the
 * checkpoints it writes (`CheckpointWrite`, `CheckpointBlob`), nor its events, webhooks and
 * logs, nor anything replayed to a viewer holds one.
 */

/** Statuses in which a challenge's token still decides something (lib/approvals/service.ts). */
const LIVE = ["pending", "approved"];

/**
 * The tokens that are live now and that `userId` may have seen: those of the thread's open
 * challenges, and of every open challenge in the workspaces the user belongs to (a token
 * pasted into the wrong thread is no less live). Recomputed from the signed fields
 * (challengeToken), as the cards do.
 * @returns challenge id -> token.
 */
export async function liveTokensFor(db: Db, secret: string, threadId: string, userId: string): Promise<Map<string, string>> {
  const rows = await db.approval.findMany({
    where: { status: { in: LIVE }, OR: [{ threadId }, { thread: { flow: { workspace: { members: { some: { userId } } } } } }] },
    select: { id: true, threadId: true, userId: true, toolName: true, argsHash: true, createdAt: true, expiresAt: true },
  });
  return new Map(rows.map((a) => [a.id, challengeToken(secret, a)]));
}

/** Counts the characters of a text that can be part of a token. */
const tokenChars = (text: string): number => text.replace(/[^\p{L}\p{N}_\-\uFF3F\uFF0D]/gu, "").length;

/**
 * A run input with every live token typed into it replaced by `[redacted]`, in whatever form
 * it was typed (lib/approvals/token-redaction.ts redactTokensIn: any case, look-alike or
 * fullwidth letters, split by spaces, before or after the id): a message's text (a task, a
 * chat reply, an answer to the run's question) and a decision's comment. One token is kept:
 * that of a chat approval the Router will accept (`APPROVE <id> <token>`, exactly the live
 * token of the challenge it names in this thread), which this very run consumes at its first
 * step (docs/architecture.md#approvals). The token field of a card's decision is never
 * stored by the job (the decision is applied when the run is accepted).
 * @returns the input, unchanged when it holds no live token.
 */
export async function withoutTypedTokens(db: Db, secret: string, threadId: string, userId: string, input: RunInput): Promise<RunInput> {
  const text = input.kind === "message" ? input.text : input.kind === "decision" ? (input.comment ?? "") : "";
  // A token needs 43 characters: shorter texts cannot hold one (no query for them).
  if (tokenChars(text) < TOKEN_LENGTH) return input;
  const live = await liveTokensFor(db, secret, threadId, userId);
  if (live.size === 0) return input;
  let tokens = [...live.values()];
  if (input.kind === "message") {
    const cmd = parseApprovalCommand(text);
    if (cmd?.kind === "approve" && live.get(cmd.approvalId) === cmd.token) {
      const mine = await db.approval.count({ where: { id: cmd.approvalId, threadId } });
      if (mine === 1) tokens = tokens.filter((t) => t !== cmd.token);
    }
  }
  const redacted = redactTokensIn(text, tokens, REDACTED);
  if (redacted === text) return input;
  if (input.kind === "message") return { ...input, text: redacted };
  return input.kind === "decision" ? { ...input, comment: redacted } : input;
}

/**
 * A new thread's task with every live token the user may have seen redacted, before the
 * thread (its `title` and `task`) is stored: the thread does not exist yet, so every live
 * token of the user's workspaces counts and none is kept (docs/security.md "Secrets at rest").
 * @param task the task as typed (chars).
 * @returns the task, unchanged when it holds no live token.
 */
export async function taskWithoutTypedTokens(db: Db, secret: string, userId: string, task: string): Promise<string> {
  const out = await withoutTypedTokens(db, secret, "", userId, { kind: "message", text: task });
  return out.kind === "message" ? out.text : task;
}
