-- AlterTable
ALTER TABLE "AuditEntry" ADD COLUMN     "workspaceId" TEXT,
ALTER COLUMN "threadId" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "AuditEntry_workspaceId_createdAt_idx" ON "AuditEntry"("workspaceId", "createdAt");

-- AddForeignKey
ALTER TABLE "AuditEntry" ADD CONSTRAINT "AuditEntry_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace"("id") ON DELETE CASCADE ON UPDATE CASCADE;

