import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

const ROOT = path.resolve(__dirname, "../..");
const PG_MIGRATIONS = path.join(ROOT, "prisma/postgres/migrations");

/**
 * The PostgreSQL DDL of the Prisma schema: the committed PostgreSQL migrations
 * (`prisma/postgres/migrations/<name>/migration.sql`, in name order) when that folder
 * exists; otherwise `prisma migrate diff --from-empty` on a copy of prisma/schema.prisma
 * whose provider is postgresql, made in a temporary directory (cached there by the
 * schema's hash, since the CLI takes seconds).
 * @param serverUrl a `postgresql://` URL the CLI's adapter may connect to (the diff reads nothing).
 * @throws Error when the Prisma CLI fails.
 */
export function postgresDdl(serverUrl: string): string {
  if (existsSync(PG_MIGRATIONS)) {
    return readdirSync(PG_MIGRATIONS, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort()
      .map((name) => readFileSync(path.join(PG_MIGRATIONS, name, "migration.sql"), "utf8"))
      .join("\n");
  }
  const schema = readFileSync(path.join(ROOT, "prisma/schema.prisma"), "utf8")
    .replace(/provider\s*=\s*"sqlite"/, 'provider = "postgresql"')
    .replace(/url\s*=\s*"file:[^"]*"/, 'url = "postgresql://localhost/unused"');
  const cached = path.join(tmpdir(), `phylactery-pg-ddl-${createHash("sha256").update(schema).digest("hex").slice(0, 16)}.sql`);
  if (existsSync(cached)) return readFileSync(cached, "utf8");
  const dir = mkdtempSync(path.join(tmpdir(), "phylactery-pg-schema-"));
  try {
    const require = createRequire(path.join(ROOT, "package.json"));
    writeFileSync(path.join(dir, "schema.prisma"), schema);
    // The CLI needs the JS engine (no downloaded schema engine, STACK.md) and so an adapter,
    // which connects even for a diff from empty.
    writeFileSync(
      path.join(dir, "prisma.config.ts"),
      `import { defineConfig } from ${JSON.stringify(require.resolve("prisma/config"))};
import { PrismaPg } from ${JSON.stringify(require.resolve("@prisma/adapter-pg"))};
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "schema.prisma",
  async adapter() { return new PrismaPg({ connectionString: ${JSON.stringify(serverUrl)} }); },
});
`,
    );
    const cli = path.join(path.dirname(require.resolve("prisma/package.json")), "build/index.js");
    const ddl = execFileSync(process.execPath, [cli, "migrate", "diff", "--from-empty", "--to-schema-datamodel", "schema.prisma", "--script"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, CHECKPOINT_DISABLE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    writeFileSync(cached, ddl);
    return ddl;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A fresh PostgreSQL database with the application's tables. */
export interface PgTestDatabase {
  /** `postgresql://` URL of the new database. */
  url: string;
  /** Drops the database (closes other sessions on it first). */
  cleanup: () => Promise<void>;
}

/**
 * Creates a database with a random name on the server of `serverUrl` (any database on it
 * that the user may connect to and CREATE DATABASE from) and applies {@link postgresDdl}.
 */
export async function createPgTestDatabase(serverUrl: string): Promise<PgTestDatabase> {
  const name = `phylactery_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  const url = target.toString();
  const cleanup = async () => {
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await c.end();
    }
  };
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    await client.query(postgresDdl(serverUrl));
  } catch (err) {
    // No database left behind when the schema cannot be applied.
    await client.end().catch(() => {});
    await cleanup();
    throw err;
  }
  await client.end();
  return { url, cleanup };
}
