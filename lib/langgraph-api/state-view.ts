import "server-only";
import type { Db } from "../db/client";
import type { Role } from "../auth/roles";
import { approvalTickets } from "./approval-tickets";
import { approvalIdsOf, platformInterrupts } from "./interrupts";
import type { StateReader } from "./run-stream";
import { platformValues } from "./thread-state";

/**
 * How a run stream and wait/join show a thread's state to one caller (their role in the
 * thread's workspace), as the thread state routes do (docs/langgraph-api.md#threads): values
 * with secrets redacted and messages as dicts; interrupts as HumanInterrupts whose approval
 * token only a caller who may decide gets.
 */
export function stateViewFor(db: Db, threadId: string, role: Role): Pick<StateReader, "values" | "interrupts"> {
  return {
    values: (s) => platformValues(threadId, (s.values ?? {}) as Record<string, unknown>),
    interrupts: async (s) => platformInterrupts(s, await approvalTickets(db, threadId, role, approvalIdsOf(s))).all,
  };
}
