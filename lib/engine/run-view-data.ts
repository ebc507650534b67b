import "server-only";
import { PrismaCheckpointSaver } from "../db/checkpointer";
import type { Db } from "../db/client";
import type { StructuredError } from "../errors";

/**
 * What the run view reads besides the stored run events (issue 5 "Run view"): who proposed
 * each tool call (the stream's tool parts do not say), and the structured error of the
 * thread's latest state (the stream's run part carries only its code and message). The
 * caller has checked that the user may see the thread (lib/db/workspaces.ts threadAccess).
 */

/** Agent ids of a thread's tool calls: by tool call id, and by `tool:argsHash`. */
export interface ToolAgentMap {
  byCallId: Record<string, string>;
  byHash: Record<string, string>;
}

/**
 * Who proposed each tool call of a thread: the approval challenges name the agent of each
 * call that needed approval (by tool call id); the RiskGate's `tool_proposed` audit records
 * name the agent of every call that passed the policy (by tool and SHA-256 of the canonical
 * arguments, SPEC.md 4). Calls refused before the policy (integrity, tool not wired) have
 * no agent here.
 */
export async function toolAgents(db: Db, threadId: string): Promise<ToolAgentMap> {
  const [approvals, proposed] = await Promise.all([
    db.approval.findMany({ where: { threadId, agentId: { not: "" } }, select: { toolCallId: true, agentId: true } }),
    db.auditEntry.findMany({ where: { threadId, action: "tool_proposed" }, select: { actorId: true, toolName: true, argsHash: true }, orderBy: { createdAt: "asc" } }),
  ]);
  const byHash: Record<string, string> = {};
  for (const p of proposed) {
    const key = `${p.toolName}:${p.argsHash}`;
    if (p.actorId && p.toolName && p.argsHash && !(key in byHash)) byHash[key] = p.actorId;
  }
  return { byCallId: Object.fromEntries(approvals.map((a) => [a.toolCallId, a.agentId])), byHash };
}

const SEVERITIES = new Set(["INFO", "WARNING", "CRITICAL"]);

/** Type guard for a {@link StructuredError} read back from a checkpoint. */
function isStructuredError(v: unknown): v is StructuredError {
  const e = v as Partial<StructuredError> | null;
  return Boolean(e && typeof e.code === "string" && typeof e.message === "string" && SEVERITIES.has(String(e.severity)) && typeof e.retryable === "boolean");
}

/** The structured error (SPEC.md 3) in the thread's latest checkpoint, or null. */
export async function latestStructuredError(db: Db, threadId: string): Promise<StructuredError | null> {
  const tuple = await new PrismaCheckpointSaver(db).getTuple({ configurable: { thread_id: threadId } });
  const error = tuple?.checkpoint.channel_values.error;
  return isStructuredError(error) ? error : null;
}
