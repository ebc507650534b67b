import "server-only";
import type { ToolExecution } from "../../generated/prisma/client";
import { runWritesSqlOf } from "../db/checkpointer-stores";
import type { Db } from "../db/client";
import { prismaErrorCode } from "../db/prisma-error-code";
import { AppError } from "../errors";
import type { ToolResultState } from "./state";
import { mismatchMessage, type ToolCallIntent, type ToolCallKey, type ToolExecutionClaim, type ToolExecutionRecord, type ToolExecutionStore } from "./tool-executions";

/** The unique key of a record (threadId + toolCallId). */
const where = (k: ToolCallKey) => ({ threadId_toolCallId: { threadId: k.threadId, toolCallId: k.toolCallId } });

/**
 * The tool execution store in the database (ToolExecution rows; see tool-executions.ts for
 * the contract). Each write is committed on its own before the caller goes on: the intent is
 * durable before the tool runs. Transitions are conditional `updateMany`s on status and
 * attempt, and the first intent is a create under the unique (thread, call id), so a second
 * writer gets the first one's record instead of a second execution.
 */
export function prismaToolExecutions(db: Db): ToolExecutionStore {
  async function claimOf(row: ToolExecution, intent: ToolCallIntent, at: number): Promise<ToolExecutionClaim> {
    if (row.toolName !== intent.toolName || row.argsHash !== intent.argsHash) throw new AppError("conflict", "tool_call_mismatch", mismatchMessage(intent));
    switch (row.status) {
      case "completed":
        return {
          kind: "completed",
          attempt: row.attempt,
          outcome: {
            status: row.outcome === "success" ? "success" : "error",
            result: JSON.parse(row.result ?? "null") as ToolResultState,
            errorCode: row.errorCode,
            durationMs: row.durationMs ?? 0,
          },
        };
      case "skipped": {
        const who = row.decidedById ? await db.user.findUnique({ where: { id: row.decidedById }, select: { name: true, email: true } }) : null;
        return { kind: "skipped", attempt: row.attempt, decidedBy: who?.name?.trim() || who?.email || "someone" };
      }
      case "retry": {
        const won = await db.toolExecution.updateMany({
          where: { id: row.id, status: "retry", attempt: row.attempt },
          data: { status: "started", attempt: row.attempt + 1, startedAt: new Date(at), endedAt: null, result: null, outcome: null, errorCode: null, durationMs: null },
        });
        if (won.count === 1) return { kind: "run", attempt: row.attempt + 1 };
        // Someone else claimed it first: answer what they left.
        return claimOf(await db.toolExecution.findUniqueOrThrow({ where: where(intent) }), intent, at);
      }
      default:
        return { kind: "unknown", attempt: row.attempt, startedAt: row.startedAt.toISOString() };
    }
  }

  return {
    async begin(intent, at) {
      // The first attempt's intent in one statement on the driver (lib/db/run-writes-sql.ts);
      // a call id already recorded is read and answered below, as it is without the driver.
      const sql = runWritesSqlOf(db);
      if (sql && (await sql.insertStarted(intent, at))) return { kind: "run", attempt: 1 };
      const existing = await db.toolExecution.findUnique({ where: where(intent) });
      if (existing) return claimOf(existing, intent, at);
      try {
        await db.toolExecution.create({ data: { ...intent, status: "started", attempt: 1, startedAt: new Date(at) } });
        return { kind: "run", attempt: 1 };
      } catch (err) {
        if (prismaErrorCode(err) !== "P2002") throw err;
        return claimOf(await db.toolExecution.findUniqueOrThrow({ where: where(intent) }), intent, at);
      }
    },
    async finish(key, attempt, outcome, at) {
      const sql = runWritesSqlOf(db);
      if (sql) return sql.finish(key, attempt, { status: outcome.status, result: JSON.stringify(outcome.result), errorCode: outcome.errorCode, durationMs: outcome.durationMs }, at);
      await db.toolExecution.updateMany({
        where: { threadId: key.threadId, toolCallId: key.toolCallId, status: "started", attempt },
        data: {
          status: "completed",
          endedAt: new Date(at),
          outcome: outcome.status,
          result: JSON.stringify(outcome.result),
          errorCode: outcome.errorCode,
          durationMs: outcome.durationMs,
        },
      });
    },
    async decide(key, attempt, choice, userId, at, confirmed) {
      if (choice === "happened" && !confirmed) throw new Error("a confirmed call needs its outcome");
      const outcome =
        choice === "happened" && confirmed
          ? { endedAt: new Date(at), outcome: confirmed.status, result: JSON.stringify(confirmed.result), errorCode: confirmed.errorCode, durationMs: confirmed.durationMs }
          : {};
      const won = await db.toolExecution.updateMany({
        where: { threadId: key.threadId, toolCallId: key.toolCallId, status: "started", attempt },
        data: { status: choice === "retry" ? "retry" : choice === "skip" ? "skipped" : "completed", decidedById: userId, decidedAt: new Date(at), ...outcome },
      });
      return won.count === 1;
    },
    async get(key) {
      const row = await db.toolExecution.findUnique({ where: where(key) });
      if (!row) return null;
      return {
        threadId: row.threadId,
        toolCallId: row.toolCallId,
        toolName: row.toolName,
        argsHash: row.argsHash,
        approvalId: row.approvalId,
        stepId: row.stepId,
        agentId: row.agentId,
        status: row.status as ToolExecutionRecord["status"],
        attempt: row.attempt,
        startedAt: row.startedAt.toISOString(),
      };
    },
  };
}
