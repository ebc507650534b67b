import "server-only";
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import path from "node:path";

/**
 * Files and folders that hold tenant data or secrets are the server user's alone
 * (docs/security.md "Secrets at rest"): the SQLite file and its WAL hold password hashes,
 * sealed keys and every tenant's runs; the secrets directory holds the HMAC and session
 * keys; workspace folders hold tenants' files.
 */

/** Mode of private folders: rwx for the owner only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of private files: rw for the owner only. */
export const PRIVATE_FILE_MODE = 0o600;
/** The umask a server process runs with: nothing for group or others. */
export const PRIVATE_UMASK = 0o077;

/** The file a `file:` database URL names (relative to the working directory), or null for other URLs. */
export function sqliteFileOf(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  const rest = url.slice("file:".length).split("?")[0] ?? "";
  return rest === "" || rest === ":memory:" ? null : path.resolve(rest);
}

function chmodIfPresent(file: string, mode: number): void {
  try {
    chmodSync(file, mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}

/**
 * Makes what already exists owner-only and creates the private folders: the database file
 * with its `-wal`, `-shm` and `-journal` companions (SQLite creates later companions with
 * the database file's mode), its folder, the secrets folder and the workspaces folder; then
 * sets the process umask so that every file created afterwards is owner-only too. Call once
 * when a server process starts, before the first database connection.
 * @param opts.databaseUrl the `DATABASE_URL` (`file:` URLs only; others are left alone).
 * @throws Error from the file system when a path exists but cannot be changed (another owner).
 */
export function securePrivateFiles(opts: { databaseUrl: string; secretsDir: string; workspacesDir: string }): void {
  process.umask(PRIVATE_UMASK);
  for (const dir of [opts.secretsDir, opts.workspacesDir]) {
    const abs = path.resolve(dir);
    mkdirSync(abs, { recursive: true, mode: PRIVATE_DIR_MODE });
    chmodSync(abs, PRIVATE_DIR_MODE);
  }
  const file = sqliteFileOf(opts.databaseUrl);
  if (!file) return;
  const folder = path.dirname(file);
  if (existsSync(folder) && folder !== process.cwd()) chmodSync(folder, PRIVATE_DIR_MODE);
  for (const suffix of ["", "-wal", "-shm", "-journal"]) chmodIfPresent(`${file}${suffix}`, PRIVATE_FILE_MODE);
}
