-- AlterTable
ALTER TABLE "Thread" ADD COLUMN "task" TEXT;

