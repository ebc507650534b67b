import { promises as fs } from "node:fs";
import path from "node:path";
import { AppError } from "../errors";

/**
 * Per-thread workspaces (SPEC.md 7): each thread gets its own directory under a base dir,
 * seeded once from `templates/workspace-files/`.
 */

const THREAD_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Seed files copied into every new workspace, resolved against the process's cwd. */
function seedDir(): string {
  return path.join(process.cwd(), "templates", "workspace-files");
}

/**
 * The absolute workspace directory of a thread: `<baseDir>/<threadId>`.
 * @param baseDir directory holding all workspaces (relative paths resolve against cwd).
 * @param threadId 1-64 chars of letters, digits, `_` and `-`, so it can never name another path.
 * @throws AppError bad_request / "invalid_thread_id" for any other thread id.
 */
export function workspaceDirFor(baseDir: string, threadId: string): string {
  if (typeof threadId !== "string" || !THREAD_ID.test(threadId)) {
    throw new AppError("bad_request", "invalid_thread_id", "Thread id must be 1-64 letters, digits, '_' or '-'.");
  }
  return path.join(path.resolve(baseDir), threadId);
}

/** Copies regular files and folders from `from` into `to`; symlinks and special files are skipped. */
async function copySeed(from: string, to: string): Promise<void> {
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    const src = path.join(from, entry.name);
    const dest = path.join(to, entry.name);
    if (entry.isDirectory()) {
      await fs.mkdir(dest, { recursive: true, mode: 0o700 });
      await copySeed(src, dest);
    } else if (entry.isFile()) {
      await fs.copyFile(src, dest, fs.constants.COPYFILE_EXCL);
      await fs.chmod(dest, 0o600);
    }
  }
}

/**
 * Creates the thread's workspace if needed and returns its absolute path. Only a directory
 * this call created is seeded with the files of `templates/workspace-files/` (none when that
 * folder is missing), so later calls never overwrite what the agent or user changed.
 * @throws AppError bad_request / "invalid_thread_id" (see {@link workspaceDirFor});
 *   AppError internal / "workspace_unavailable" when the path exists but is not a directory.
 */
export async function ensureWorkspace(baseDir: string, threadId: string): Promise<string> {
  const dir = workspaceDirFor(baseDir, threadId);
  // Owner-only (docs/security.md "Secrets at rest"): a workspace holds a tenant's files.
  await fs.mkdir(path.dirname(dir), { recursive: true, mode: 0o700 });
  try {
    await fs.mkdir(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    if (!(await fs.stat(dir)).isDirectory()) {
      throw new AppError("internal", "workspace_unavailable", `Workspace path for thread ${threadId} is not a directory.`);
    }
    return dir;
  }
  try {
    await copySeed(seedDir(), dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  return dir;
}
