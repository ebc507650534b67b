import { createHash, randomBytes } from "node:crypto";
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
async function createMigratedDatabase(adminUrl: string, name: string): Promise<PgTestDatabase> {
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

/** PostgreSQL's SQLSTATEs a template copy retries on: object_in_use (a session still on the template), duplicate_database. */
const IN_USE = "55006";
const DUPLICATE_DATABASE = "42P04";

/** Per admin URL, this process's template database name once it exists. */
const templates = new Map<string, Promise<string>>();

/**
 * The migrated template database on the server of `adminUrl`: `phy_template_<sha256 of the
 * migrations>`, built once per server (migrated under a random name, then renamed, so a
 * parallel test worker never copies a half-migrated one) and reused while the migrations are
 * unchanged; the server is thrown away after the suite (scripts/pg-server.sh).
 */
function migratedTemplate(adminUrl: string): Promise<string> {
  let made = templates.get(adminUrl);
  if (!made) {
    made = buildTemplate(adminUrl);
    made.catch(() => templates.delete(adminUrl));
    templates.set(adminUrl, made);
  }
  return made;
}

async function buildTemplate(adminUrl: string): Promise<string> {
  const hash = createHash("sha256");
  for (const name of readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()) {
    hash
      .update(name)
      .update("\0")
      .update(readFileSync(path.join(MIGRATIONS, name, "migration.sql"), "utf8"))
      .update("\0");
  }
  const template = `phy_template_${hash.digest("hex").slice(0, 16)}`;
  const exists = await withClient(adminUrl, (c) => c.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]));
  if (exists.rowCount) return template;
  const building = `phy_building_${randomBytes(8).toString("hex")}`;
  const db = await createMigratedDatabase(adminUrl, building);
  try {
    await retryInUse(() => withClient(adminUrl, (c) => c.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`)));
  } catch (err) {
    await db.drop();
    // Another worker renamed its own copy into place first: use that one.
    if ((err as { code?: string }).code !== DUPLICATE_DATABASE) throw err;
  }
  return template;
}

/** Runs `fn`, again while PostgreSQL answers object_in_use (a closed session's backend may still be exiting), up to ~5 s. */
async function retryInUse<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if ((err as { code?: string }).code !== IN_USE || attempt >= 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** A copy of the template database under a new random name (`phy_test_<hex>`). */
async function copyTemplate(adminUrl: string): Promise<PgTestDatabase> {
  const name = `phy_test_${randomBytes(8).toString("hex")}`;
  const template = await migratedTemplate(adminUrl);
  await retryInUse(() => withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`)));
  const drop = () => withClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined);
  return { url: withDatabase(adminUrl, name), drop };
}

/** Per admin URL: how many databases this process asked for, and the copy made ahead for the next ask. */
const ahead = new Map<string, { asked: number; spare: Promise<PgTestDatabase> | null }>();

/**
 * Creates a database with a random name (`phy_test_<hex>`) on the server of `adminUrl`, a copy
 * of the migrated template database (`CREATE DATABASE ... TEMPLATE`, a few times faster than
 * applying the migrations to each one). `PG_TEST_TEMPLATE=0` applies the migrations instead.
 *
 * From a process's second ask on, the copy for the next ask is made ahead, while the caller
 * uses this one: a copy costs ~0.2 s on a quiet 2-core machine and over 1 s on a loaded one,
 * and a file of N tests otherwise waits for N of them in turn (docs/testing.md "Test
 * databases"). Each copy is handed out once and is as fresh as one made on demand (the
 * template is never written to); the one spare left at the end of a test file is dropped by
 * {@link dropSpareDatabases} (lib/db/test-pg-setup.ts).
 * @throws the server's error when it refuses (e.g. the admin URL's user may not CREATE DATABASE).
 */
export async function createPgTestDatabase(adminUrl: string): Promise<PgTestDatabase> {
  if (process.env.PG_TEST_TEMPLATE === "0") return createMigratedDatabase(adminUrl, `phy_test_${randomBytes(8).toString("hex")}`);
  const state = ahead.get(adminUrl) ?? { asked: 0, spare: null };
  ahead.set(adminUrl, state);
  state.asked += 1;
  const spare = state.spare;
  state.spare = null;
  // A spare that failed (e.g. the server was busy) is made again now, on demand.
  const ready = spare ? await spare.catch(() => copyTemplate(adminUrl)) : await copyTemplate(adminUrl);
  if (state.asked >= 2) {
    const next = copyTemplate(adminUrl);
    // Its failure is seen by the next ask (which then makes its own), not here.
    next.catch(() => undefined);
    state.spare = next;
  }
  return ready;
}

/**
 * The database made ahead for the next ask on `adminUrl` (waiting for it while it is being
 * made), or null when there is none; it stays the next one handed out. For tests of this module.
 */
export async function spareDatabase(adminUrl: string): Promise<PgTestDatabase | null> {
  return (await ahead.get(adminUrl)?.spare?.catch(() => null)) ?? null;
}

/**
 * Drops the databases made ahead by {@link createPgTestDatabase} and not handed out (at most
 * one per admin URL), waiting for one still being made. Registered after each test file by
 * lib/db/test-pg-setup.ts; a spare left behind by a crash goes with the throwaway server.
 */
export async function dropSpareDatabases(): Promise<void> {
  const spares = [...ahead.values()].flatMap((s) => (s.spare ? [s.spare] : []));
  for (const s of ahead.values()) s.spare = null;
  for (const spare of spares) {
    const db = await spare.catch(() => null);
    await db?.drop();
  }
}
