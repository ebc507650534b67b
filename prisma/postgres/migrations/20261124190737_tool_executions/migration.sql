-- Exactly-once side effects (docs/durability.md "Side effects"): the durable record of each
-- side-effecting tool call, and an idempotency key for audit entries that graph nodes write.

-- AlterTable
ALTER TABLE "AuditEntry" ADD COLUMN     "key" TEXT;

-- CreateTable
CREATE TABLE "ToolExecution" (
    "id" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "toolCallId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "argsHash" TEXT NOT NULL,
    "approvalId" TEXT,
    "stepId" TEXT,
    "agentId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL DEFAULT 1,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),
    "result" TEXT,
    "outcome" TEXT,
    "errorCode" TEXT,
    "durationMs" INTEGER,
    "decidedById" TEXT,
    "decidedAt" TIMESTAMP(3),

    CONSTRAINT "ToolExecution_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ToolExecution_approvalId_idx" ON "ToolExecution"("approvalId");

-- CreateIndex
CREATE UNIQUE INDEX "ToolExecution_threadId_toolCallId_key" ON "ToolExecution"("threadId", "toolCallId");

-- CreateIndex
CREATE UNIQUE INDEX "AuditEntry_threadId_key_key" ON "AuditEntry"("threadId", "key");

-- AddForeignKey
ALTER TABLE "ToolExecution" ADD CONSTRAINT "ToolExecution_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;
