import { validate } from "@langchain/langgraph-checkpoint-validation";
import { PrismaCheckpointSaver } from "./checkpointer";
import { createTestDb, type TestDb, testDialect } from "./test-db";

// The official LangGraph checkpointer conformance suite, on a real database: a SQLite file, or
// fresh PostgreSQL databases when TEST_DATABASE_URL (or DATABASE_URL) names a PostgreSQL server.
// `npm run test:conformance` with DATABASE_URL=postgresql://… runs it there; its name says which.
const url = process.env.DATABASE_URL ?? "";
if (!process.env.TEST_DATABASE_URL && /^postgres(ql)?:\/\//.test(url)) process.env.TEST_DATABASE_URL = url;
const open = new WeakMap<PrismaCheckpointSaver, TestDb>();

validate({
  checkpointerName: `PrismaCheckpointSaver on ${testDialect() === "postgresql" ? "PostgreSQL" : "SQLite"}`,
  createCheckpointer: async () => {
    const t = await createTestDb();
    const saver = new PrismaCheckpointSaver(t.db);
    open.set(saver, t);
    return saver;
  },
  destroyCheckpointer: async (saver: PrismaCheckpointSaver) => {
    await open.get(saver)?.cleanup();
  },
});
