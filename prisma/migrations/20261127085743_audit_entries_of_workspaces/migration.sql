-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_AuditEntry" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "threadId" TEXT,
    "workspaceId" TEXT,
    "actorId" TEXT,
    "action" TEXT NOT NULL,
    "toolName" TEXT,
    "argsHash" TEXT,
    "detail" TEXT NOT NULL DEFAULT '{}',
    "key" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "AuditEntry_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "AuditEntry_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_AuditEntry" ("action", "actorId", "argsHash", "createdAt", "detail", "id", "key", "threadId", "toolName") SELECT "action", "actorId", "argsHash", "createdAt", "detail", "id", "key", "threadId", "toolName" FROM "AuditEntry";
DROP TABLE "AuditEntry";
ALTER TABLE "new_AuditEntry" RENAME TO "AuditEntry";
CREATE INDEX "AuditEntry_threadId_createdAt_idx" ON "AuditEntry"("threadId", "createdAt");
CREATE INDEX "AuditEntry_workspaceId_createdAt_idx" ON "AuditEntry"("workspaceId", "createdAt");
CREATE UNIQUE INDEX "AuditEntry_threadId_key_key" ON "AuditEntry"("threadId", "key");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

