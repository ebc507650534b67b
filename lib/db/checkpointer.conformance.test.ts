import { validate } from "@langchain/langgraph-checkpoint-validation";
import { PrismaCheckpointSaver } from "./checkpointer";
import { createTestDb, type TestDb } from "./test-db";

// The official LangGraph checkpointer conformance suite, on a real SQLite file (issue 2).
const open = new WeakMap<PrismaCheckpointSaver, TestDb>();

validate({
  checkpointerName: "PrismaCheckpointSaver",
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
