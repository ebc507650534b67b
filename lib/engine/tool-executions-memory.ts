import { AppError } from "../errors";
import {
  mismatchMessage,
  type OutcomeChoice,
  type ToolCallIntent,
  type ToolCallKey,
  type ToolCallOutcome,
  type ToolExecutionClaim,
  type ToolExecutionRecord,
  type ToolExecutionStore,
} from "./tool-executions";

interface Row extends ToolExecutionRecord {
  outcome: ToolCallOutcome | null;
  decidedBy: string | null;
}

/**
 * The in-memory twin of the tool execution store (see tool-executions.ts), for node tests:
 * the same transitions as the database store, checked by the same conformance suite. A
 * skipped record names its decider by user id (`names` maps ids to what the report shows).
 */
export function memoryToolExecutions(names: Readonly<Record<string, string>> = {}): ToolExecutionStore & { rows: Map<string, Row> } {
  const rows = new Map<string, Row>();
  const id = (k: ToolCallKey) => `${k.threadId}\u0000${k.toolCallId}`;
  return {
    rows,
    async begin(intent: ToolCallIntent, at: number): Promise<ToolExecutionClaim> {
      const row = rows.get(id(intent));
      if (!row) {
        rows.set(id(intent), { ...intent, status: "started", attempt: 1, startedAt: new Date(at).toISOString(), outcome: null, decidedBy: null });
        return { kind: "run", attempt: 1 };
      }
      if (row.toolName !== intent.toolName || row.argsHash !== intent.argsHash) throw new AppError("conflict", "tool_call_mismatch", mismatchMessage(intent));
      switch (row.status) {
        case "completed":
          return { kind: "completed", attempt: row.attempt, outcome: row.outcome as ToolCallOutcome };
        case "skipped":
          return { kind: "skipped", attempt: row.attempt, decidedBy: names[row.decidedBy ?? ""] ?? row.decidedBy ?? "someone" };
        case "retry":
          Object.assign(row, { status: "started", attempt: row.attempt + 1, startedAt: new Date(at).toISOString(), outcome: null });
          return { kind: "run", attempt: row.attempt };
        default:
          return { kind: "unknown", attempt: row.attempt, startedAt: row.startedAt };
      }
    },
    async finish(key, attempt, outcome) {
      const row = rows.get(id(key));
      if (row?.status === "started" && row.attempt === attempt) Object.assign(row, { status: "completed", outcome });
    },
    async decide(key, attempt, choice: OutcomeChoice, userId, _at, confirmed) {
      if (choice === "happened" && !confirmed) throw new Error("a confirmed call needs its outcome");
      const row = rows.get(id(key));
      if (row?.status !== "started" || row.attempt !== attempt) return false;
      if (choice === "happened") Object.assign(row, { status: "completed", outcome: confirmed, decidedBy: userId });
      else Object.assign(row, { status: choice === "retry" ? "retry" : "skipped", decidedBy: userId });
      return true;
    },
    async get(key) {
      const row = rows.get(id(key));
      if (!row) return null;
      const { outcome: _o, decidedBy: _d, ...record } = row;
      return record;
    },
  };
}
