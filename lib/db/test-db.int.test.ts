import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { applyMigrations, createTestDatabase, type TestDatabase } from "./test-db";
import { dropSpareDatabases, spareDatabase } from "./test-pg";

/** The schema of a database: every table, index, view and trigger with its SQL (SQLite) or every column (PostgreSQL). */
async function schemaOf(t: TestDatabase): Promise<string[]> {
  if (t.file) {
    const sqlite = new Database(t.file, { readonly: true });
    try {
      return sqlite
        .prepare("SELECT type || ' ' || name || ' ' || coalesce(sql, '') AS s FROM sqlite_master ORDER BY type, name")
        .all()
        .map((r) => (r as { s: string }).s);
    } finally {
      sqlite.close();
    }
  }
  const c = new pg.Client({ connectionString: t.url });
  await c.connect();
  try {
    const cols = await c.query(
      "SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS s FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1",
    );
    const idx = await c.query("SELECT indexdef AS s FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1");
    return [...cols.rows, ...idx.rows].map((r) => (r as { s: string }).s);
  } finally {
    await c.end();
  }
}

describe("test databases (copies of a database migrated once)", () => {
  const made: TestDatabase[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const t of made.splice(0)) await t.drop();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("has exactly the schema that applying the migrations gives", async () => {
    const copy = await createTestDatabase();
    made.push(copy);
    let migrated: TestDatabase;
    if (copy.file) {
      const dir = mkdtempSync(path.join(tmpdir(), "phylactery-migrated-"));
      dirs.push(dir);
      const file = path.join(dir, "migrated.db");
      applyMigrations(file);
      migrated = { url: `file:${file}`, dialect: "sqlite", file, drop: async () => {} };
    } else {
      process.env.PG_TEST_TEMPLATE = "0";
      try {
        migrated = await createTestDatabase();
      } finally {
        delete process.env.PG_TEST_TEMPLATE;
      }
      made.push(migrated);
    }
    const schema = await schemaOf(copy);
    expect(schema.length).toBeGreaterThan(20);
    expect(schema).toEqual(await schemaOf(migrated));
  });

  it("gives each caller its own database: a row written in one is not in another", async () => {
    const [a, b] = [await createTestDatabase(), await createTestDatabase()];
    made.push(a, b);
    expect(a.url).not.toBe(b.url);
    if (a.file && b.file) {
      const sa = new Database(a.file);
      sa.prepare("INSERT INTO User (id, email) VALUES ('u1', 'a@test.dev')").run();
      sa.close();
      const sb = new Database(b.file, { readonly: true });
      expect(sb.prepare("SELECT count(*) AS n FROM User").get()).toEqual({ n: 0 });
      sb.close();
      return;
    }
    const ca = new pg.Client({ connectionString: a.url });
    const cb = new pg.Client({ connectionString: b.url });
    await ca.connect();
    await cb.connect();
    try {
      await ca.query(`INSERT INTO "User" (id, email) VALUES ('u1', 'a@test.dev')`);
      expect((await cb.query(`SELECT count(*)::int AS n FROM "User"`)).rows).toEqual([{ n: 0 }]);
    } finally {
      await ca.end();
      await cb.end();
    }
  });
});

/** Whether a database of this name exists on the server of `admin`. */
async function exists(admin: string, name: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: admin });
  await c.connect();
  try {
    return ((await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount ?? 0) > 0;
  } finally {
    await c.end();
  }
}

const nameOf = (t: { url: string }) => new URL(t.url).pathname.slice(1);

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))("PostgreSQL test databases made ahead (lib/db/test-pg.ts)", () => {
  const admin = process.env.TEST_DATABASE_URL ?? "";
  const made: TestDatabase[] = [];
  afterEach(async () => {
    for (const t of made.splice(0)) await t.drop();
  });

  it("from the second ask on, the next database exists before it is asked for, is handed out once, and holds no earlier test's rows", async () => {
    const [a, b] = [await createTestDatabase(), await createTestDatabase()];
    made.push(a, b);
    const c = new pg.Client({ connectionString: b.url });
    await c.connect();
    await c.query(`INSERT INTO "User" (id, email) VALUES ('u1', 'b@test.dev')`);
    await c.end();
    // Made while b is in use, before the third ask.
    const spare = await spareDatabase(admin);
    expect(spare, "no database was made ahead of the third ask").not.toBeNull();
    if (!spare) return;
    expect(await exists(admin, nameOf(spare))).toBe(true);
    const third = await createTestDatabase();
    made.push(third);
    expect(third.url).toBe(spare.url);
    expect(new Set(made.map(nameOf)).size).toBe(3);
    const t = new pg.Client({ connectionString: third.url });
    await t.connect();
    try {
      expect((await t.query(`SELECT count(*)::int AS n FROM "User"`)).rows).toEqual([{ n: 0 }]);
    } finally {
      await t.end();
    }
  });

  it("dropping the spare leaves no database of it behind, and the next ask makes a new one", async () => {
    made.push(await createTestDatabase(), await createTestDatabase());
    const spare = await spareDatabase(admin);
    expect(spare).not.toBeNull();
    if (!spare) return;
    await dropSpareDatabases();
    expect(await exists(admin, nameOf(spare))).toBe(false);
    expect(await spareDatabase(admin)).toBeNull();
    const next = await createTestDatabase();
    made.push(next);
    expect(next.url).not.toBe(spare.url);
    expect(await exists(admin, nameOf(next))).toBe(true);
  });
});
