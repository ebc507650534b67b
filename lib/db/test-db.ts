import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { createDb, type Db, type Dialect } from "./client";
import { createPgTestDatabase } from "./test-pg";

/**
 * Fresh migrated databases for tests and benchmarks: a SQLite file in a temporary directory,
 * or, when `TEST_DATABASE_URL` is set (an admin URL of a PostgreSQL server), a new database on
 * that server (lib/db/test-pg.ts). The same suites run on both (scripts/test.sh).
 */

/** A migrated database without a client (e.g. for a server process to open). */
export interface TestDatabase {
  /** `file:` or `postgresql://` URL of the database. */
  url: string;
  dialect: Dialect;
  /** The SQLite file; null on PostgreSQL. */
  file: string | null;
  /** Removes the database (SQLite: its directory; PostgreSQL: DROP DATABASE). */
  drop(): Promise<void>;
}

/** A migrated database and a Prisma client on it. */
export interface TestDb extends Omit<TestDatabase, "drop"> {
  db: Db;
  /** Disconnects and removes the database. */
  cleanup: () => Promise<void>;
}

const MIGRATIONS = path.resolve(__dirname, "../../prisma/migrations");

/** The database the tests run on: PostgreSQL when `TEST_DATABASE_URL` is set, else SQLite. */
export function testDialect(): Dialect {
  return process.env.TEST_DATABASE_URL ? "postgresql" : "sqlite";
}

/** Applies `prisma/migrations/<name>/migration.sql` in name order to a SQLite file (in WAL mode). */
export function applyMigrations(file: string): void {
  const sqlite = new Database(file);
  try {
    sqlite.pragma("journal_mode = WAL");
    for (const m of migrationFiles()) sqlite.exec(m.sql);
  } finally {
    sqlite.close();
  }
}

/** The migration files in name order (directory name, SQL). */
function migrationFiles(): { name: string; sql: string }[] {
  return readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort((a, b) => a.localeCompare(b))
    .map((name) => ({ name, sql: readFileSync(path.join(MIGRATIONS, name, "migration.sql"), "utf8") }));
}

/** This process's migrated template file, once made ({@link migratedTemplate}). */
let template: string | null = null;

/**
 * A migrated SQLite file to copy from: `phylactery-template-<sha256 of the migrations>.db` in the
 * OS temporary directory, made once (migrations applied to a file of this process, then renamed
 * into place, so parallel test workers never see a half-migrated file) and then reused by every
 * test database of every worker while the migrations are unchanged. A copy costs well under a
 * millisecond; applying the migrations costs ~100 ms per database.
 */
function migratedTemplate(): string {
  if (template && existsSync(template)) return template;
  const hash = createHash("sha256");
  for (const m of migrationFiles()) hash.update(m.name).update("\0").update(m.sql).update("\0");
  const file = path.join(tmpdir(), `phylactery-template-${hash.digest("hex").slice(0, 16)}.db`);
  if (!existsSync(file)) {
    const dir = mkdtempSync(path.join(tmpdir(), "phylactery-template-"));
    try {
      const building = path.join(dir, "template.db");
      applyMigrations(building);
      renameSync(building, file);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  template = file;
  return file;
}

/**
 * Creates a migrated database: on the PostgreSQL server of `TEST_DATABASE_URL` when set,
 * else a SQLite file `<dir>/<fileName>` in a new temporary directory. Either is a copy of a
 * database migrated once per run (SQLite: a template file; PostgreSQL: a template database).
 * @param opts.dir the directory for the SQLite file (default: a new temporary one, removed by
 *   `drop`; a given one is left in place).
 */
export async function createTestDatabase(opts: { dir?: string; fileName?: string } = {}): Promise<TestDatabase> {
  const admin = process.env.TEST_DATABASE_URL;
  if (admin) {
    const pg = await createPgTestDatabase(admin);
    return { url: pg.url, dialect: "postgresql", file: null, drop: pg.drop };
  }
  const own = opts.dir === undefined;
  const dir = opts.dir ?? mkdtempSync(path.join(tmpdir(), "phylactery-db-"));
  const file = path.join(dir, opts.fileName ?? "test.db");
  // A copy of the migrated template file: the same schema as applying the migrations (WAL mode
  // is recorded in the file), without running them for every test.
  copyFileSync(migratedTemplate(), file);
  const drop = async () => {
    if (own) rmSync(dir, { recursive: true, force: true });
    else for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(`${file}${suffix}`, { force: true });
  };
  return { url: `file:${file}`, dialect: "sqlite", file, drop };
}

/** Creates a migrated database ({@link createTestDatabase}) and a Prisma client on it. */
export async function createTestDb(): Promise<TestDb> {
  const { drop, ...where } = await createTestDatabase();
  const db = createDb(where.url);
  return {
    ...where,
    db,
    cleanup: async () => {
      await db.$disconnect();
      await drop();
    },
  };
}
