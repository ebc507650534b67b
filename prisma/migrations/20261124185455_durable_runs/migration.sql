-- AlterTable
ALTER TABLE "Thread" ADD COLUMN "leaseExpiresAt" DATETIME;
ALTER TABLE "Thread" ADD COLUMN "leaseHolder" TEXT;
ALTER TABLE "Thread" ADD COLUMN "leaseRunId" TEXT;

-- CreateTable
CREATE TABLE "RunJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "requestedBy" TEXT NOT NULL,
    "input" TEXT NOT NULL,
    "startCheckpointId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "holder" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "RunJob_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "RunJob_runId_key" ON "RunJob"("runId");

-- CreateIndex
CREATE INDEX "RunJob_status_createdAt_idx" ON "RunJob"("status", "createdAt");

-- CreateIndex
CREATE INDEX "RunJob_threadId_idx" ON "RunJob"("threadId");

-- CreateIndex
CREATE INDEX "Thread_leaseExpiresAt_idx" ON "Thread"("leaseExpiresAt");
