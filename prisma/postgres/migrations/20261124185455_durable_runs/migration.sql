-- AlterTable
ALTER TABLE "Thread" ADD COLUMN     "leaseExpiresAt" TIMESTAMP(3),
ADD COLUMN     "leaseHolder" TEXT,
ADD COLUMN     "leaseRunId" TEXT;

-- CreateTable
CREATE TABLE "RunJob" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,
    "requestedBy" TEXT NOT NULL,
    "input" TEXT NOT NULL,
    "startCheckpointId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "holder" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RunJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "RunJob_runId_key" ON "RunJob"("runId");

-- CreateIndex
CREATE INDEX "RunJob_status_createdAt_idx" ON "RunJob"("status", "createdAt");

-- CreateIndex
CREATE INDEX "RunJob_threadId_idx" ON "RunJob"("threadId");

-- CreateIndex
CREATE INDEX "Thread_leaseExpiresAt_idx" ON "Thread"("leaseExpiresAt");

-- AddForeignKey
ALTER TABLE "RunJob" ADD CONSTRAINT "RunJob_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;
