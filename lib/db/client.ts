import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../generated/prisma/client";
import { PrismaClient as PgPrismaClient } from "../../generated/prisma-pg/client";
import { env } from "../env";
import { rememberDbUrl } from "./db-url";
import { wellFormedDeep } from "./well-formed";

/**
 * The generated Prisma client type. Both generated clients (SQLite, PostgreSQL) come from the
 * same models (prisma/postgres/schema.prisma is generated from prisma/schema.prisma), so they
 * share this model API; a PostgreSQL client is typed as the SQLite one (docs/databases.md).
 */
export type Db = PrismaClient;

/** The databases a `DATABASE_URL` may name. */
export type Dialect = "sqlite" | "postgresql";

/** How long a SQLite connection waits for another connection's write lock, ms. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;

/**
 * The better-sqlite3 adapter factory with these settings on every connection it opens (they
 * are per connection, hence set in `connect()`):
 * - `secure_delete = ON`: SQLite overwrites deleted content with zeros instead of leaving it
 *   in freed pages, so an erasure (SPEC.md 6 right to erasure, lib/memory/erase.ts) leaves no
 *   copy in the database file;
 * - `journal_mode = WAL`: readers do not block the writer nor the writer the readers, so the
 *   web process and worker processes can share the file (the mode is stored in the file);
 * - `busy_timeout`: a writer waits up to {@link SQLITE_BUSY_TIMEOUT_MS} for another writer's
 *   lock instead of failing at once with SQLITE_BUSY.
 */
class TunedSQLite3 extends PrismaBetterSQLite3 {
  override async connect() {
    const adapter = await super.connect();
    await adapter.executeScript(`PRAGMA secure_delete = ON; PRAGMA journal_mode = WAL; PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS};`);
    return adapter;
  }
}

/** The dialect of a database URL. @throws Error naming DATABASE_URL for any other scheme. */
export function dialectOfUrl(url: string): Dialect {
  if (url.startsWith("file:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgresql";
  throw new Error("DATABASE_URL must be a file: URL (SQLite, e.g. file:./.data/phylactery.db) or a postgresql:// URL (PostgreSQL).");
}

/** What createDb knows of each client it made. */
const origins = new WeakMap<object, { dialect: Dialect; url: string }>();

/**
 * Every model query's arguments are repaired to well-formed Unicode (lib/db/well-formed.ts).
 * A query extension leaves the models' types unchanged, so the client keeps its type.
 */
function wellFormed<C extends { $extends: PrismaClient["$extends"] }>(client: C): Db {
  return client.$extends({
    query: {
      $allModels: {
        $allOperations({ args, query }) {
          return query(wellFormedDeep(args));
        },
      },
    },
  }) as unknown as Db;
}

/**
 * Creates a Prisma client on the database `url` names (default `DATABASE_URL`), with every
 * string argument made well-formed Unicode:
 * - `file:` a SQLite file through the better-sqlite3 driver adapter (JS engine, STACK.md),
 *   with secure_delete, WAL and a busy timeout on each connection ({@link TunedSQLite3});
 * - `postgres://` / `postgresql://` PostgreSQL through the pg driver adapter (a pool of
 *   connections), with the client generated from prisma/postgres/schema.prisma.
 * @throws Error when the URL names neither.
 */
export function createDb(url: string = env().DATABASE_URL): Db {
  const dialect = dialectOfUrl(url);
  const db =
    dialect === "sqlite"
      ? wellFormed(new PrismaClient({ adapter: new TunedSQLite3({ url }) }))
      : wellFormed(new PgPrismaClient({ adapter: new PrismaPg({ connectionString: url }) }) as unknown as PrismaClient);
  origins.set(db, { dialect, url });
  // The checkpointer opens its own driver connection to the same database (lib/db/db-url.ts).
  return rememberDbUrl(db, url);
}

/**
 * Which database a client made by {@link createDb} speaks. A client made elsewhere (or a
 * transaction's client) answers from Prisma's own provider field.
 * @throws Error when neither is known.
 */
export function dialectOf(db: Db): Dialect {
  const known = origins.get(db)?.dialect;
  if (known) return known;
  const provider = (db as unknown as { _activeProvider?: string })._activeProvider;
  if (provider === "sqlite" || provider === "postgresql") return provider;
  throw new Error("dialectOf: not a client made by createDb");
}

/**
 * The URL a client made by {@link createDb} was made on (tests open a second client on it,
 * or read the SQLite file behind it).
 * @throws Error for a client createDb did not make.
 */
export function databaseUrlOf(db: Db): string {
  const url = origins.get(db)?.url;
  if (url === undefined) throw new Error("databaseUrlOf: not a client made by createDb");
  return url;
}

const globalForDb = globalThis as unknown as { __phylacteryDb?: Db };

/** Process-wide client (one per server process; survives Next.js dev reloads). */
export function db(): Db {
  globalForDb.__phylacteryDb ??= createDb();
  return globalForDb.__phylacteryDb;
}
