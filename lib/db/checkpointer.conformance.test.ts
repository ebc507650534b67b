import { validate } from "@langchain/langgraph-checkpoint-validation";
import { PrismaCheckpointSaver, type PrismaCheckpointSaverOptions } from "./checkpointer";
import { closeCheckpointStore } from "./checkpointer-stores";
import { createTestDb, type TestDb, testDialect } from "./test-db";

// The official LangGraph checkpointer conformance suite, on a real database: a SQLite file, or
// fresh PostgreSQL databases when TEST_DATABASE_URL (or DATABASE_URL) names a PostgreSQL server.
// `npm run test:conformance` with DATABASE_URL=postgresql://… runs it there; its name says which.
// Each database runs the driver path, the driver path with the lease holder's latest-checkpoint
// cache, and the Prisma-only fallback.
const url = process.env.DATABASE_URL ?? "";
if (!process.env.TEST_DATABASE_URL && /^postgres(ql)?:\/\//.test(url)) process.env.TEST_DATABASE_URL = url;
const database = testDialect() === "postgresql" ? "PostgreSQL" : "SQLite";
const open = new WeakMap<PrismaCheckpointSaver, TestDb>();

const VARIANTS: { name: string; options: (url: string) => PrismaCheckpointSaverOptions }[] = [
  { name: "", options: (u) => ({ url: u }) },
  { name: ", latest cached", options: (u) => ({ url: u, cacheLatest: true }) },
  { name: ", through Prisma", options: () => ({ url: null }) },
];

for (const variant of VARIANTS) {
  validate({
    checkpointerName: `PrismaCheckpointSaver on ${database}${variant.name}`,
    createCheckpointer: async () => {
      const t = await createTestDb();
      const saver = new PrismaCheckpointSaver(t.db, variant.options(t.url));
      open.set(saver, t);
      return saver;
    },
    destroyCheckpointer: async (saver: PrismaCheckpointSaver) => {
      const t = open.get(saver);
      if (!t) return;
      await closeCheckpointStore(t.url);
      await t.cleanup();
    },
  });
}
