-- Issue 6: short- and long-term memory, erasure tombstones, thread summaries, MCP servers.
-- AlterTable
ALTER TABLE "Thread" ADD COLUMN "summarizedAt" DATETIME;
ALTER TABLE "Thread" ADD COLUMN "summary" TEXT;

-- CreateTable
CREATE TABLE "MemoryEntry" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "threadId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    "stepId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "MemoryEntry_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "MemoryFact" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "tags" TEXT NOT NULL DEFAULT '[]',
    "agentRole" TEXT NOT NULL DEFAULT '',
    "origin" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'accepted',
    "sourceThreadId" TEXT,
    "sourceStepId" TEXT,
    "createdById" TEXT,
    "embedding" TEXT,
    "embeddingModel" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "MemoryFact_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Tombstone" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "subjectId" TEXT NOT NULL,
    "workspaceId" TEXT NOT NULL,
    "actorId" TEXT,
    "counts" TEXT NOT NULL DEFAULT '{}',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "McpServer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "workspaceId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "transport" TEXT NOT NULL,
    "command" TEXT,
    "args" TEXT NOT NULL DEFAULT '[]',
    "url" TEXT,
    "secretCiphertext" TEXT,
    "tools" TEXT NOT NULL DEFAULT '[]',
    "lastError" TEXT,
    "refreshedAt" DATETIME,
    "createdById" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "McpServer_workspaceId_fkey" FOREIGN KEY ("workspaceId") REFERENCES "Workspace" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "MemoryEntry_threadId_createdAt_idx" ON "MemoryEntry"("threadId", "createdAt");

-- CreateIndex
CREATE INDEX "MemoryEntry_expiresAt_idx" ON "MemoryEntry"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "MemoryEntry_threadId_key_key" ON "MemoryEntry"("threadId", "key");

-- CreateIndex
CREATE INDEX "MemoryFact_workspaceId_status_updatedAt_idx" ON "MemoryFact"("workspaceId", "status", "updatedAt");

-- CreateIndex
CREATE INDEX "MemoryFact_sourceThreadId_sourceStepId_idx" ON "MemoryFact"("sourceThreadId", "sourceStepId");

-- CreateIndex
CREATE UNIQUE INDEX "MemoryFact_workspaceId_contentHash_key" ON "MemoryFact"("workspaceId", "contentHash");

-- CreateIndex
CREATE INDEX "Tombstone_workspaceId_createdAt_idx" ON "Tombstone"("workspaceId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "McpServer_workspaceId_name_key" ON "McpServer"("workspaceId", "name");
