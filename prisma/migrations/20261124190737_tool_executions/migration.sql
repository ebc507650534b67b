-- Exactly-once side effects (docs/durability.md "Side effects"): the durable record of each
-- side-effecting tool call, and an idempotency key for audit entries that graph nodes write.
-- Existing audit entries get a null key, so the new unique index cannot find duplicates.
-- AlterTable
ALTER TABLE "AuditEntry" ADD COLUMN "key" TEXT;

-- CreateTable
CREATE TABLE "ToolExecution" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "threadId" TEXT NOT NULL,
    "toolCallId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "argsHash" TEXT NOT NULL,
    "approvalId" TEXT,
    "stepId" TEXT,
    "agentId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "startedAt" DATETIME NOT NULL,
    "endedAt" DATETIME,
    "result" TEXT,
    "outcome" TEXT,
    "errorCode" TEXT,
    "durationMs" INTEGER,
    "decidedById" TEXT,
    "decidedAt" DATETIME,
    CONSTRAINT "ToolExecution_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ToolExecution_approvalId_idx" ON "ToolExecution"("approvalId");

-- CreateIndex
CREATE UNIQUE INDEX "ToolExecution_threadId_toolCallId_key" ON "ToolExecution"("threadId", "toolCallId");

-- CreateIndex
CREATE UNIQUE INDEX "AuditEntry_threadId_key_key" ON "AuditEntry"("threadId", "key");
