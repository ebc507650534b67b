import { workspaceAssistant } from "../../templates/workspace-assistant";
import { createFlow } from "../db/flows";
import { createTestDb } from "../db/test-db";
import { createThread } from "../db/threads";
import { prismaRunStore } from "./store-prisma";
import { runStoreConformance } from "./store.conformance";

// SQLite, or a fresh PostgreSQL database when TEST_DATABASE_URL is set (lib/db/test-db.ts).
runStoreConformance("database", async () => {
  const t = await createTestDb();
  const user = await t.db.user.create({ data: { email: "ada@test.dev", name: "Ada" } });
  const flow = await createFlow(t.db, user.id, workspaceAssistant);
  const a = await createThread(t.db, user.id, flow.id, "First");
  const b = await createThread(t.db, user.id, flow.id, "Second");
  return {
    store: prismaRunStore(t.db),
    threadIds: [a.id, b.id],
    flowVersionId: a.flowVersionId,
    async peek(threadId, runId) {
      const thread = await t.db.thread.findUnique({ where: { id: threadId }, select: { status: true, leaseRunId: true, leaseHolder: true } });
      const run = await t.db.run.findUnique({ where: { id: runId }, select: { status: true } });
      return { runStatus: run?.status ?? null, threadStatus: thread?.status ?? null, leaseRunId: thread?.leaseRunId ?? null, leaseHolder: thread?.leaseHolder ?? null };
    },
    cleanup: t.cleanup,
  };
});
