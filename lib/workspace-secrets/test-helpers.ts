import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import type { TestDb } from "../db/test-db";
import { setLogDestination } from "../log";
import { pagesContaining } from "../memory/test-fixtures";

/**
 * The byte scan of the secrets tests (docs/secrets.md "What sees what"): where stored bytes
 * and files hold a value. With rowsContaining (lib/memory/test-fixtures.ts) it covers every
 * row, the database's stored bytes and the workspace files.
 */

/** Where the stored bytes hold `needle`: the SQLite file and its WAL, or PostgreSQL's pages. */
export async function storedBytesContaining(t: TestDb, needle: string): Promise<string[]> {
  if (!t.file) return pagesContaining(t.db, needle);
  const bytes = Buffer.from(needle, "utf8");
  return [t.file, `${t.file}-wal`].filter((p) => existsSync(p) && readFileSync(p).includes(bytes));
}

/** Every file under `dir` whose bytes hold `needle` ([] when `dir` does not exist). */
export function filesContaining(dir: string, needle: string): string[] {
  if (!existsSync(dir)) return [];
  const bytes = Buffer.from(needle, "utf8");
  return (readdirSync(dir, { recursive: true }) as string[]).map((f) => path.join(dir, f)).filter((p) => statSync(p).isFile() && readFileSync(p).includes(bytes));
}

/**
 * Sends every log line, at `debug` and above, into `lines` (one JSON line each), so a byte
 * scan can read what the server logged.
 * @returns the function that restores the previous destination and level.
 */
export function captureLogs(lines: string[]): () => void {
  return setLogDestination(
    new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    }),
    { level: "debug" },
  );
}
