import { promises as fs } from "node:fs";
import path from "node:path";
import { addLibraryFiles, type LibraryAuditEntry, type LibraryAuditSink, listLibrary, type UploadedFile } from "../tools/library";

/**
 * The demo workspace's library (docs/library.md "The demo workspace's library"): the sample
 * files of `templates/library/` (`notes.md`, `release-notes.md`, `README.md`) that the seed
 * puts into the demo workspace's library, so the template flows (which mount it) have
 * something to read. A new thread's workspace starts empty; these files are never copied into it.
 */

/**
 * A workspace library's audit trail as the seed needs it: where a change is recorded, and
 * what was recorded so far (lib/library/audit.ts libraryAuditLog; docs/library.md "Audit").
 */
export interface LibraryAuditLog {
  sink: LibraryAuditSink;
  /** The library's recorded uploads and deletes, oldest first. */
  entries(): Promise<LibraryAuditEntry[]>;
}

/** Who the library's audit trail names for the files the seed adds. */
export const SEED_ACTOR = "seed";

/** The folder of the sample files, resolved against the process's cwd. */
export function sampleFilesDir(): string {
  return path.join(process.cwd(), "templates", "library");
}

/** The sample files (name and bytes), sorted by name (code points, as listLibrary sorts); regular files only. */
export async function sampleFiles(dir: string = sampleFilesDir()): Promise<UploadedFile[]> {
  const out: UploadedFile[] = [];
  for (const entry of (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (entry.isFile()) out.push({ name: entry.name, data: new Uint8Array(await fs.readFile(path.join(dir, entry.name))) });
  }
  return out;
}

/**
 * Puts the sample files into a workspace's library through the library's own write code
 * ({@link addLibraryFiles}: the same names, kinds, limits and audit lines as an owner's upload).
 * Idempotent: a file is added only when the library has never had a file of that name (none
 * there now and none in its audit trail, `log`), so re-seeding never duplicates a file, never
 * overwrites one an owner replaced, and never brings back one an owner deleted.
 * @param baseDir the WORKSPACES_DIR.
 * @param log the workspace library's audit trail (the database's in the app and the seed).
 * @returns the names added (empty when there was nothing to add).
 * @throws the AppErrors of {@link addLibraryFiles} (e.g. "library_full" when the owner's files leave no room).
 */
export async function seedDemoLibrary(baseDir: string, workspaceId: string, log: LibraryAuditLog, dir: string = sampleFilesDir()): Promise<string[]> {
  const known = new Set([...(await listLibrary(baseDir, workspaceId)).map((f) => f.name), ...(await log.entries()).map((e) => e.name)]);
  const missing = (await sampleFiles(dir)).filter((f) => !known.has(f.name));
  if (missing.length === 0) return [];
  await addLibraryFiles(baseDir, workspaceId, missing, SEED_ACTOR, log.sink);
  return missing.map((f) => f.name);
}
