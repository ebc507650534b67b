import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";

/**
 * Prisma CLI configuration: JS engine with the better-sqlite3 driver adapter, so that
 * migrations run without downloaded engines.
 * `migrate dev` replays migrations on an in-memory shadow database through a
 * parameterless `executeRaw`, which better-sqlite3 refuses for multi-statement SQL;
 * the shadow adapter sends those to `executeScript` instead.
 */
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  async adapter() {
    const factory = new PrismaBetterSQLite3({
      url: process.env.DATABASE_URL ?? "file:./.data/phylactery.db",
    });
    const connectShadow = factory.connectToShadowDb.bind(factory);
    factory.connectToShadowDb = async () => {
      const adapter = await connectShadow();
      const executeRaw = adapter.executeRaw.bind(adapter);
      adapter.executeRaw = async (query) => {
        if (query.args.length === 0) {
          await adapter.executeScript(query.sql);
          return 0;
        }
        return executeRaw(query);
      };
      return adapter;
    };
    return factory;
  },
});
