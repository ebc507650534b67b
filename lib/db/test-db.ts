import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { createDb, type Db } from "./client";

/** A fresh SQLite file with every committed migration applied, for tests and benchmarks. */
export interface TestDb {
  db: Db;
  /** `file:` URL of the database. */
  url: string;
  file: string;
  /** Disconnects and removes the file's directory. */
  cleanup: () => Promise<void>;
}

const MIGRATIONS = path.resolve(__dirname, "../../prisma/migrations");

/** Applies `prisma/migrations/<name>/migration.sql` in name order to a SQLite file. */
export function applyMigrations(file: string): void {
  const sqlite = new Database(file);
  try {
    sqlite.pragma("journal_mode = WAL");
    for (const dir of readdirSync(MIGRATIONS, { withFileTypes: true }).filter((d) => d.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
      sqlite.exec(readFileSync(path.join(MIGRATIONS, dir.name, "migration.sql"), "utf8"));
    }
  } finally {
    sqlite.close();
  }
}

/** Creates a migrated SQLite file in a temporary directory and a Prisma client on it. */
export async function createTestDb(): Promise<TestDb> {
  const dir = mkdtempSync(path.join(tmpdir(), "phylactery-db-"));
  const file = path.join(dir, "test.db");
  applyMigrations(file);
  const url = `file:${file}`;
  const db = createDb(url);
  return {
    db,
    url,
    file,
    cleanup: async () => {
      await db.$disconnect();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
