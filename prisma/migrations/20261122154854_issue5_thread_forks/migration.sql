-- Issue 5 (time travel): a forked thread names the thread and checkpoint it was forked from.
-- AlterTable
ALTER TABLE "Thread" ADD COLUMN "forkedFromCheckpointId" TEXT;
ALTER TABLE "Thread" ADD COLUMN "forkedFromThreadId" TEXT;

-- CreateIndex
CREATE INDEX "Thread_forkedFromThreadId_idx" ON "Thread"("forkedFromThreadId");
