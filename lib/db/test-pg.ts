import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";

/**
 * Throwaway PostgreSQL databases for tests and benchmarks: one fresh database per call on the
 * server `TEST_DATABASE_URL` names (an admin URL, e.g.
 * postgresql://postgres@127.0.0.1:55432/postgres; scripts/pg-server.sh starts one).
 */

const MIGRATIONS = path.resolve(__dirname, "../../prisma/postgres/migrations");

/** The URL with another database name (user, host, port and options kept). */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

/** Runs `fn` on one connection to `url`, then closes it. */
async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * Applies every `prisma/postgres/migrations/<name>/migration.sql`, in name order, to the
 * database at `url` (each file as one multi-statement query).
 */
export async function applyPgMigrations(url: string): Promise<void> {
  const dirs = readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  await withClient(url, async (c) => {
    for (const name of dirs) await c.query(readFileSync(path.join(MIGRATIONS, name, "migration.sql"), "utf8"));
  });
}

/** A migrated PostgreSQL database made by {@link createPgTestDatabase}. */
export interface PgTestDatabase {
  /** `postgresql://` URL of the new database. */
  url: string;
  /** Drops the database, closing any connection still open to it. */
  drop(): Promise<void>;
}

/**
 * Creates a database with a random name (`phy_test_<hex>`) on the server of `adminUrl` and
 * applies the PostgreSQL migrations to it.
 * @throws the server's error when it refuses (e.g. the admin URL's user may not CREATE DATABASE).
 */
export async function createPgTestDatabase(adminUrl: string): Promise<PgTestDatabase> {
  const name = `phy_test_${randomBytes(8).toString("hex")}`;
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = withDatabase(adminUrl, name);
  const drop = () => withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined);
  try {
    await applyPgMigrations(url);
  } catch (err) {
    await drop();
    throw err;
  }
  return { url, drop };
}
