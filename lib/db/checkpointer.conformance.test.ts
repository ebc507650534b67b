import { validate } from "@langchain/langgraph-checkpoint-validation";
import { beforeAll } from "vitest";
import { createDb } from "./client";
import { PrismaCheckpointSaver, type PrismaCheckpointSaverOptions } from "./checkpointer";
import { createPgTestDatabase, postgresDdl } from "./checkpointer-pg-test-db";
import { closeCheckpointStore } from "./checkpointer-stores";
import { createTestDb } from "./test-db";

// The official LangGraph checkpointer conformance suite, on a real SQLite file and, when
// DATABASE_URL is a postgresql:// URL, on a fresh database of that PostgreSQL server; each
// with the driver path, with the latest-checkpoint cache, and (SQLite) through Prisma only.
const cleanups = new WeakMap<PrismaCheckpointSaver, () => Promise<void>>();

type Variant = { name: string; options: (url: string) => PrismaCheckpointSaverOptions };
const VARIANTS: Variant[] = [
  { name: "", options: (url) => ({ url }) },
  { name: ", latest cached", options: (url) => ({ url, cacheLatest: true }) },
];

for (const variant of [...VARIANTS, { name: ", through Prisma", options: () => ({ url: null }) }]) {
  validate({
    checkpointerName: `PrismaCheckpointSaver (sqlite${variant.name})`,
    createCheckpointer: async () => {
      const t = await createTestDb();
      const saver = new PrismaCheckpointSaver(t.db, variant.options(t.url));
      cleanups.set(saver, async () => {
        await closeCheckpointStore(t.url);
        await t.cleanup();
      });
      return saver;
    },
    destroyCheckpointer: async (saver: PrismaCheckpointSaver) => {
      await cleanups.get(saver)?.();
    },
  });
}

const serverUrl = process.env.DATABASE_URL ?? "";
if (/^postgres(ql)?:\/\//.test(serverUrl)) {
  // Without committed PostgreSQL migrations the DDL comes from the Prisma CLI: seconds, once.
  beforeAll(() => void postgresDdl(serverUrl), 120_000);
  for (const variant of VARIANTS) {
    validate({
      checkpointerName: `PrismaCheckpointSaver (postgresql${variant.name})`,
      createCheckpointer: async () => {
        const t = await createPgTestDatabase(serverUrl);
        const db = createDb(t.url);
        const saver = new PrismaCheckpointSaver(db, variant.options(t.url));
        cleanups.set(saver, async () => {
          await closeCheckpointStore(t.url);
          await db.$disconnect();
          await t.cleanup();
        });
        return saver;
      },
      destroyCheckpointer: async (saver: PrismaCheckpointSaver) => {
        await cleanups.get(saver)?.();
      },
    });
  }
}
