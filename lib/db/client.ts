import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../../generated/prisma/client";
import { env } from "../env";
import { rememberDbUrl } from "./db-url";
import { wellFormedDeep } from "./well-formed";

/** The generated Prisma client type. */
export type Db = PrismaClient;

/**
 * The better-sqlite3 adapter factory with `PRAGMA secure_delete = ON` on every connection it
 * opens: SQLite then overwrites deleted content with zeros instead of leaving it in freed
 * pages, so an erasure (SPEC.md 6 right to erasure, lib/memory/erase.ts) leaves no copy in
 * the database file. The pragma is per connection, hence set in `connect()`.
 */
class SecureDeleteSQLite3 extends PrismaBetterSQLite3 {
  override async connect() {
    const adapter = await super.connect();
    await adapter.executeScript("PRAGMA secure_delete = ON;");
    return adapter;
  }
}

/**
 * Creates a Prisma client on a SQLite file through the better-sqlite3 driver adapter
 * (JS engine, STACK.md), with secure_delete on and every string argument made well-formed
 * Unicode. `url` is a `file:` URL; defaults to `DATABASE_URL`.
 */
export function createDb(url: string = env().DATABASE_URL): Db {
  const client = new PrismaClient({ adapter: new SecureDeleteSQLite3({ url }) });
  // Every model query's arguments are repaired to well-formed Unicode (lib/db/well-formed.ts).
  // A query extension leaves the models' types unchanged, so the client keeps its type.
  const extended = client.$extends({
    query: {
      $allModels: {
        $allOperations({ args, query }) {
          return query(wellFormedDeep(args));
        },
      },
    },
  }) as unknown as Db;
  // The checkpointer opens its own driver connection to the same database (lib/db/db-url.ts).
  return rememberDbUrl(extended, url);
}

const globalForDb = globalThis as unknown as { __phylacteryDb?: Db };

/** Process-wide client (one per server process; survives Next.js dev reloads). */
export function db(): Db {
  globalForDb.__phylacteryDb ??= createDb();
  return globalForDb.__phylacteryDb;
}
