import type { Db } from "../db/client";
import { challengeToken } from "../approvals/service";
import { redactSecrets } from "./redact";
import type { RunChunk } from "./ui-parts";

/** Who follows a run, as far as secrets go. */
export interface ChunkViewer {
  /** The viewer's role may decide the thread's approvals (owner, approver). */
  canDecide: boolean;
}

/** Options of {@link chunkForViewer}. */
export interface ViewerChunkOptions {
  /** The approval HMAC key (lib/approvals/secret.ts); needed only for deciders. */
  secret?: string;
  /** Now, in ms since the epoch (tests). */
  now?: () => number;
}

/**
 * A stored chunk as one viewer may see it, the same rule as the run view's page load
 * (docs/security.md "Secrets at rest"): stored approval cards carry no token, so for a
 * viewer who may decide, the token of a pending, unexpired challenge is recomputed from its
 * row; everyone else gets the card without one and every other secret-like value redacted.
 * @returns the chunk to stream (the input is not changed).
 * @throws Error when a decider's token is needed and `secret` is missing or shorter than 32 bytes.
 */
export async function chunkForViewer(db: Db, viewer: ChunkViewer, chunk: RunChunk, opts: ViewerChunkOptions = {}): Promise<RunChunk> {
  if (!viewer.canDecide) {
    const c = chunk.type === "data-approval" ? { ...chunk, data: { ...chunk.data, token: "" } } : chunk;
    return redactSecrets(c);
  }
  if (chunk.type !== "data-approval") return chunk;
  const a = await db.approval.findUnique({
    where: { id: chunk.data.approvalId },
    select: { id: true, status: true, threadId: true, userId: true, toolName: true, argsHash: true, createdAt: true, expiresAt: true },
  });
  const now = opts.now?.() ?? Date.now();
  const live = a && a.status === "pending" && a.expiresAt.getTime() > now;
  if (live && !opts.secret) throw new Error("chunkForViewer: the approval secret is needed to give a decider the card's token.");
  return { ...chunk, data: { ...chunk.data, token: live && opts.secret ? challengeToken(opts.secret, a) : "" } };
}
