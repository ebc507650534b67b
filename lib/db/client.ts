import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../../generated/prisma/client";
import { env } from "../env";

/** The generated Prisma client type. */
export type Db = PrismaClient;

/**
 * Creates a Prisma client on a SQLite file through the better-sqlite3 driver adapter
 * (JS engine, STACK.md). `url` is a `file:` URL; defaults to `DATABASE_URL`.
 */
export function createDb(url: string = env().DATABASE_URL): Db {
  return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url }) });
}

const globalForDb = globalThis as unknown as { __phylacteryDb?: Db };

/** Process-wide client (one per server process; survives Next.js dev reloads). */
export function db(): Db {
  globalForDb.__phylacteryDb ??= createDb();
  return globalForDb.__phylacteryDb;
}
