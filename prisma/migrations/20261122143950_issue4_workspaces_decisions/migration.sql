-- Issue 4: workspaces with roles, and approval decisions. Existing databases get one
-- personal workspace per user (the user is its owner) holding the user's flows.
-- CreateTable
CREATE TABLE "Workspace" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Membership" (
    "workspaceId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("workspaceId", "userId"),
    CONSTRAINT "Membership_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Membership_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Data: a personal workspace per existing user, owned by that user.
INSERT INTO "Workspace" ("id", "name") SELECT 'ws_' || "id", COALESCE("name", "email") || '''s workspace' FROM "User";
INSERT INTO "Membership" ("workspaceId", "userId", "role") SELECT 'ws_' || "id", "id", 'owner' FROM "User";

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Approval" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "threadId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "toolCallId" TEXT NOT NULL,
    "canonicalArgs" TEXT NOT NULL,
    "argsHash" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "decidedAt" DATETIME,
    "decidedById" TEXT,
    "comment" TEXT,
    "consumedAt" DATETIME,
    "decision" TEXT,
    "editedArgs" TEXT,
    "editedArgsHash" TEXT,
    "runNotifiedAt" DATETIME,
    "agentId" TEXT NOT NULL DEFAULT '',
    "agentName" TEXT NOT NULL DEFAULT '',
    "stepId" TEXT NOT NULL DEFAULT '',
    "stepTask" TEXT NOT NULL DEFAULT '',
    "risk" TEXT NOT NULL DEFAULT 'medium',
    "rule" TEXT NOT NULL DEFAULT '',
    CONSTRAINT "Approval_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Approval_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Approval" ("argsHash", "canonicalArgs", "comment", "consumedAt", "createdAt", "decidedAt", "decidedById", "expiresAt", "id", "signature", "status", "threadId", "toolCallId", "toolName", "userId", "decision") SELECT "argsHash", "canonicalArgs", "comment", "consumedAt", "createdAt", "decidedAt", "decidedById", "expiresAt", "id", "signature", "status", "threadId", "toolCallId", "toolName", "userId", CASE "status" WHEN 'rejected' THEN 'reject' WHEN 'expired' THEN 'expired' WHEN 'pending' THEN NULL ELSE 'approve' END FROM "Approval";
DROP TABLE "Approval";
ALTER TABLE "new_Approval" RENAME TO "Approval";
CREATE INDEX "Approval_threadId_status_idx" ON "Approval"("threadId", "status");
CREATE INDEX "Approval_userId_status_idx" ON "Approval"("userId", "status");
CREATE INDEX "Approval_status_expiresAt_idx" ON "Approval"("status", "expiresAt");
CREATE TABLE "new_Flow" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "templateKey" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Flow_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Flow_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Flow" ("createdAt", "description", "id", "name", "ownerId", "workspaceId", "templateKey", "updatedAt") SELECT "createdAt", "description", "id", "name", "ownerId", 'ws_' || "ownerId", "templateKey", "updatedAt" FROM "Flow";
DROP TABLE "Flow";
ALTER TABLE "new_Flow" RENAME TO "Flow";
CREATE INDEX "Flow_ownerId_idx" ON "Flow"("ownerId");
CREATE INDEX "Flow_workspaceId_idx" ON "Flow"("workspaceId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Membership_userId_idx" ON "Membership"("userId");
