import "server-only";
import type { StateSnapshot } from "@langchain/langgraph";
import { challengeToken } from "../approvals/service";
import { approvalSecret } from "../approvals/secret";
import type { Db } from "../db/client";
import { can, type Role } from "../db/workspaces";
import { redactSecrets } from "../engine/safe-state";
import type { StateReader } from "./run-stream";

type StoredMessage = { role?: string; content?: unknown };

/**
 * A thread's state values as the LangGraph Platform shows them (docs/langgraph-api.md#threads):
 * every channel with secrets redacted (lib/engine/safe-state.ts), and `messages` as LangChain
 * message dicts (`{ type: "human" | "ai", content, id }`, ids by position) that useStream and
 * Agent Chat UI read.
 */
export function platformValues(values: unknown): Record<string, unknown> {
  const safe = redactSecrets((values ?? {}) as Record<string, unknown>);
  const messages = Array.isArray(safe.messages) ? (safe.messages as StoredMessage[]) : [];
  return {
    ...safe,
    messages: messages.map((m, i) => ({ type: m.role === "user" ? "human" : "ai", content: typeof m.content === "string" ? m.content : "", id: `msg-${i}`, ...(m.role === "user" ? {} : { tool_calls: [] }) })),
  };
}

type StoredApproval = { action_request?: { action?: string; args?: Record<string, unknown> }; config?: Record<string, boolean>; description?: string; approval_id?: string; args_hash?: string };

/**
 * The interrupts a snapshot waits on, as one caller may see them (docs/langgraph-api.md#approvals):
 * each `{ id, value }` with value a list of one Agent Inbox `HumanInterrupt`. An approval's
 * `action_request` carries `approval: { id, args_hash, expires_at, token? }`; the one-time
 * token only for a caller whose role may decide, and only while the challenge is pending: a
 * client echoes that `action_request` as its HumanResponse's args to decide.
 */
export async function platformInterrupts(db: Db, role: Role, snapshot: StateSnapshot): Promise<{ id: string; value: unknown }[]> {
  const out: { id: string; value: unknown }[] = [];
  for (const i of snapshot.tasks.flatMap((t) => t.interrupts)) {
    const first = (Array.isArray(i.value) ? i.value[0] : null) as StoredApproval | null;
    if (!i.id) continue;
    if (!first?.approval_id || !first.action_request) {
      out.push({ id: i.id, value: redactSecrets(i.value) });
      continue;
    }
    const row = await db.approval.findUnique({ where: { id: first.approval_id } });
    const token = row && row.status === "pending" && can(role, "decide") ? challengeToken(approvalSecret(), row) : undefined;
    const approval = { id: first.approval_id, args_hash: first.args_hash ?? "", expires_at: row?.expiresAt.toISOString() ?? null, ...(token ? { token } : {}) };
    out.push({
      id: i.id,
      value: [{ action_request: { action: first.action_request.action ?? "tool", args: first.action_request.args ?? {}, approval }, config: first.config ?? {}, description: first.description ?? "" }],
    });
  }
  return out;
}

/** The values and interrupts views of one caller (their role in the thread's workspace). */
export function stateViewFor(db: Db, role: Role): Pick<StateReader, "values" | "interrupts"> {
  return { values: (s) => platformValues(s.values), interrupts: (s) => platformInterrupts(db, role, s) };
}
