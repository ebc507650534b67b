import "server-only";
import type { Db } from "../db/client";
import { FlowDocument } from "../flow/schema";
import { decideTool } from "../policy/decide-tool";
import { isSideEffectTool } from "../tools/registry";

/** One pending approval as the inbox shows it (issue 4): where, what, exactly, and how risky. */
export interface InboxItem {
  approvalId: string;
  threadId: string;
  threadTitle: string;
  flowName: string;
  flowVersion: number;
  toolName: string;
  toolCallId: string;
  /** RFC 8785 canonical arguments, exactly what will run. */
  canonicalArgs: string;
  argsHash: string;
  /** The card's one-time token (HMAC), needed to approve. */
  token: string;
  risk: string;
  rule: string;
  requestedAt: string;
  expiresAt: string;
}

/**
 * Pending, unexpired approvals the user may decide, across threads and flows, soonest to
 * expire first. Risk and the matching rule come from the policies of the flow version the
 * run pinned (SPEC.md 4).
 * @param now ms since the epoch.
 */
export async function pendingApprovals(db: Db, userId: string, now: number = Date.now()): Promise<InboxItem[]> {
  const rows = await db.approval.findMany({
    where: { userId, status: "pending", expiresAt: { gt: new Date(now) } },
    orderBy: { expiresAt: "asc" },
    include: { thread: { include: { flow: { select: { name: true } }, flowVersion: { select: { version: true, document: true } } } } },
  });
  return rows.map((a) => {
    const doc = FlowDocument.safeParse(JSON.parse(a.thread.flowVersion.document));
    const decided = doc.success ? decideTool(doc.data, a.toolName, isSideEffectTool) : null;
    return {
      approvalId: a.id,
      threadId: a.threadId,
      threadTitle: a.thread.title,
      flowName: a.thread.flow.name,
      flowVersion: a.thread.flowVersion.version,
      toolName: a.toolName,
      toolCallId: a.toolCallId,
      canonicalArgs: a.canonicalArgs,
      argsHash: a.argsHash,
      token: a.signature,
      risk: decided?.rule?.risk ?? "medium",
      rule: decided?.rule ? `${decided.rule.tool} → ${decided.rule.decision}` : "default for tools with side effects",
      requestedAt: a.createdAt.toISOString(),
      expiresAt: a.expiresAt.toISOString(),
    };
  });
}

/** How many approvals wait for the user (the navigation badge). */
export async function pendingCount(db: Db, userId: string, now: number = Date.now()): Promise<number> {
  return db.approval.count({ where: { userId, status: "pending", expiresAt: { gt: new Date(now) } } });
}
