/**
 * Strict parsing of chat approval replies (docs/architecture.md#nodes: only an exact command decides, so near misses stay chat).
 * Only a whole message of exactly this shape counts; anything else is an ordinary reply.
 */
export type ApprovalCommand = { kind: "approve"; approvalId: string; token: string } | { kind: "reject"; approvalId: string };

/** `APROBAR <id> <token>` (or English `APPROVE`); id and token: >= 6 of [A-Za-z0-9_-]. */
export const APPROVE_RE = /^(?:APROBAR|APPROVE)\s+([A-Za-z0-9_-]{6,})\s+([A-Za-z0-9_-]{6,})$/;
/** `RECHAZAR <id>` (or English `REJECT`). */
export const REJECT_RE = /^(?:RECHAZAR|REJECT)\s+([A-Za-z0-9_-]{6,})$/;

/**
 * Parses a user message as an approval command. Leading/trailing whitespace is trimmed
 * (as the seed's `.strip()`); case, extra words and short ids are not forgiven.
 * @returns the command, or null when the text is not one.
 */
export function parseApprovalCommand(text: string): ApprovalCommand | null {
  const msg = text.trim();
  const ap = APPROVE_RE.exec(msg);
  if (ap?.[1] && ap[2]) return { kind: "approve", approvalId: ap[1], token: ap[2] };
  const re = REJECT_RE.exec(msg);
  if (re?.[1]) return { kind: "reject", approvalId: re[1] };
  return null;
}
