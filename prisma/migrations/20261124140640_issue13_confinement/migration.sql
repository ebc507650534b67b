/*
  Warnings:

  - You are about to drop the column `signature` on the `Approval` table. All the data in the column will be lost.

*/
-- CreateTable
CREATE TABLE "Invitation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "invitedById" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" DATETIME,
    CONSTRAINT "Invitation_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Invitation_invitedById_fkey" FOREIGN KEY ("invitedById") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SignInThrottle" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "windowStart" DATETIME NOT NULL,
    "lockedUntil" DATETIME
);

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
INSERT INTO "new_Approval" ("agentId", "agentName", "argsHash", "canonicalArgs", "comment", "consumedAt", "createdAt", "decidedAt", "decidedById", "decision", "editedArgs", "editedArgsHash", "expiresAt", "id", "risk", "rule", "runNotifiedAt", "status", "stepId", "stepTask", "threadId", "toolCallId", "toolName", "userId") SELECT "agentId", "agentName", "argsHash", "canonicalArgs", "comment", "consumedAt", "createdAt", "decidedAt", "decidedById", "decision", "editedArgs", "editedArgsHash", "expiresAt", "id", "risk", "rule", "runNotifiedAt", "status", "stepId", "stepTask", "threadId", "toolCallId", "toolName", "userId" FROM "Approval";
DROP TABLE "Approval";
ALTER TABLE "new_Approval" RENAME TO "Approval";
CREATE INDEX "Approval_threadId_status_idx" ON "Approval"("threadId", "status");
CREATE INDEX "Approval_userId_status_idx" ON "Approval"("userId", "status");
CREATE INDEX "Approval_status_expiresAt_idx" ON "Approval"("status", "expiresAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Invitation_email_status_idx" ON "Invitation"("email", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_workspaceId_email_key" ON "Invitation"("workspaceId", "email");
